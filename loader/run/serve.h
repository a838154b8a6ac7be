/* SPDX-License-Identifier: GPL-2.0 */
/* serve.c: the long-running service mode, once the scheduler is attached. */
#ifndef FUZZ_SERVE_H
#define FUZZ_SERVE_H

#include <signal.h>

#include "fuzz.h"
#include "sched.h"
#include "serve_config.h"

/* set by cli/main.c's SIGUSR1 handler: write a flight record now */
extern volatile sig_atomic_t serve_dump_asked;

/* Until SIGINT/SIGTERM (0) or an ejection (EXIT_SCHED). */
int serve_run(struct sched *s, const struct serve_config *c, __u64 seed);
/* Whether the kernel has PSI, which back-off reads; 0 or EXIT_USAGE after saying why. */
int serve_check_pressure(void);
#endif /* FUZZ_SERVE_H */
