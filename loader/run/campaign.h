/* SPDX-License-Identifier: GPL-2.0 */
/* The runner: runs of CMD under the attached scheduler (campaign.c). */
#ifndef FUZZ_CAMPAIGN_H
#define FUZZ_CAMPAIGN_H

#include <stdbool.h>
#include <stdint.h>

#include <signal.h>

#include "fuzz.h"
#include "result.h"
#include "sched.h"
#include "capture.h"
#include "probes.h"
#include "follow.h"
#include "trace.h"

/* The runner's state; `res` is all output/ is given. */
struct campaign {
	struct campaign_result res;
	struct sched *s;
	unsigned long cap;	/* runs allocated */
	double start_s;
	int exit_status;	/* what scx_fuzz exits with */
	struct capture out;	/* the current run's output */
	struct trace trace;	/* the current run's events (--trace) */
	const struct fuzz_knobs *knobs;	/* as loaded */
	struct probes probes;
	struct follow follow;		/* --points: the tree's programs and their points */
};

/* set by cli/main.c's SIGINT/SIGTERM handler: the signal, 0 if none */
extern volatile sig_atomic_t fuzz_stop_signal;

int campaign_run(struct campaign *c);

#endif /* FUZZ_CAMPAIGN_H */
