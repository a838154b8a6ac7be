/* SPDX-License-Identifier: GPL-2.0 */
/* The runner: runs of CMD under the attached scheduler (campaign.c, report.c). */
#ifndef FUZZ_CAMPAIGN_H
#define FUZZ_CAMPAIGN_H

#include <stdbool.h>
#include <stdint.h>

#include "fuzz.h"
#include "sched.h"
#include "capture.h"
#include "probes.h"
#include "trace.h"

enum run_result {
	RUN_PASS,		/* exit 0, output did not match --fail-on */
	RUN_FAIL,		/* non-zero exit */
	RUN_SIGNAL,		/* killed by a signal */
	RUN_HANG,		/* exceeded --timeout; its tree was killed */
	RUN_MATCH,		/* its output matched --fail-on */
	RUN_ERRCMD,		/* --error-command succeeded: the target failed while running */
	RUN_INTERRUPTED,	/* SIGINT/SIGTERM to scx_fuzz during the run */
	RUN_NOT_STARTED,	/* CMD could not be executed */
};

struct run {
	unsigned long n;	/* 1-based */
	__u64 seed;
	double duration_s;
	enum run_result result;
	int status;		/* CMD's exit status (128+N for signal N); -1 if none */
	bool cut;		/* still running at --iteration-time: ended, counted as a pass */
	uint64_t counters[FUZZ_NR_STATS];	/* this run's share of the counters */
	uint64_t pct_steps;	/* --mode pct: the steps its change points were drawn over */
	size_t points_placed;	/* --points: the uprobes the kernel took for this run */
	__u32 point_ppm;	/* --points: its chance to act at a hit */
	struct fuzz_point_act acts[FUZZ_POINT_LOG];	/* --points: the last acted on, if it failed */
	size_t nr_acts;
};

enum stop_reason { STOP_DONE, STOP_FAILURE, STOP_SUCCESS, STOP_SIGNAL, STOP_EJECTED, STOP_ERROR };

struct campaign {
	const struct fuzz_opts *o;
	struct sched *s;
	__u64 seed;		/* the campaign's; run n gets run_seed_of(seed, n) */
	struct run *runs;
	unsigned long nr_runs, cap, failures;
	double start_s, elapsed_s;
	enum stop_reason stop;
	int exit_status;	/* what scx_fuzz exits with */
	struct capture out;	/* the current run's output */
	struct trace trace;	/* the current run's events (--trace) */
	const char *kernel;	/* uname release */
	const struct point_set *points;	/* --points; NULL: none */
	const struct fuzz_knobs *knobs;	/* as loaded */
	struct probes probes;
	int nr_cpus, nr_llcs, nr_nodes;
};

bool run_failed(enum run_result r);
const char *run_result_name(enum run_result r);
int campaign_run(struct campaign *c);

/* report.c */
void report_run_line(const struct campaign *c, const struct run *r);
void report_failure(struct campaign *c, const struct run *r);
void report_trace(struct campaign *c, const struct run *r);
void report_status(const struct campaign *c, bool final);
void report_summary(const struct campaign *c);
int report_json(const struct campaign *c, const char *path, int exit_status);

#endif /* FUZZ_CAMPAIGN_H */
