/* SPDX-License-Identifier: GPL-2.0 */
/* What a campaign produced, as plain data: the runner fills it, output/ reads it. */
#ifndef FUZZ_RESULT_H
#define FUZZ_RESULT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fuzz.h"
#include "point_set.h"

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

struct campaign_result {
	const struct fuzz_opts *o;
	__u64 seed;		/* the campaign's; run n gets run_seed_of(seed, n) */
	struct run *runs;
	unsigned long nr_runs, failures;
	double elapsed_s;
	enum stop_reason stop;
	const char *kernel;	/* uname release */
	int nr_cpus, nr_llcs, nr_nodes;
	const struct point_set *points;	/* --points; NULL: none */
	__u64 point_seed;		/* --points: the seed their sample was drawn from */
};

/* The last lines a run printed, oldest first, and the one --fail-on matched. */
#define OUTPUT_TAIL_LINES 20
struct output_tail {
	const char *lines[OUTPUT_TAIL_LINES];
	unsigned n;
	const char *matched_line;	/* NULL: none */
};

static inline bool run_failed(enum run_result r)
{
	return r == RUN_FAIL || r == RUN_SIGNAL || r == RUN_HANG || r == RUN_MATCH || r == RUN_ERRCMD;
}

static inline const char *run_result_name(enum run_result r)
{
	static const char *const names[] = {
		[RUN_PASS] = "pass", [RUN_FAIL] = "fail", [RUN_SIGNAL] = "signal", [RUN_HANG] = "hang",
		[RUN_MATCH] = "fail-on", [RUN_ERRCMD] = "error-command", [RUN_INTERRUPTED] = "interrupted",
		[RUN_NOT_STARTED] = "not-started",
	};
	return names[r];
}

#endif /* FUZZ_RESULT_H */
