/* SPDX-License-Identifier: GPL-2.0 */
/* preflight.c: checks against a sysfs root ("/sys" normally). 0 or EXIT_SCHED. */
#ifndef FUZZ_PREFLIGHT_H
#define FUZZ_PREFLIGHT_H

#include <stddef.h>
#include <sys/types.h>

int check_root(uid_t euid);
int check_sched_ext(const char *sysfs);
int read_sched_ext_state(const char *sysfs, char *state, size_t state_len, char *ops, size_t ops_len);
#endif /* FUZZ_PREFLIGHT_H */
