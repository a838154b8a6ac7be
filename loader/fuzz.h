/* SPDX-License-Identifier: GPL-2.0 */
/* The loader's shared types: exit statuses and the options every layer reads. */
#ifndef FUZZ_LOADER_H
#define FUZZ_LOADER_H

#include <stdbool.h>
#include <stdint.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <sys/types.h>

#include "scx_fuzz.h"

#define SCX_FUZZ_VERSION "0.1.0"

/* Exit statuses of scx_fuzz itself; anything else is the target's own. */
enum fuzz_exit_status {
	EXIT_USAGE = 2,		/* bad flags or input */
	EXIT_SCHED = 3,		/* could not attach, or the kernel ejected the scheduler */
	EXIT_HANG = 124,	/* a single run outlived --timeout (as timeout(1) says) */
	EXIT_NOT_EXEC = 126,	/* CMD exists but cannot be executed */
	EXIT_NOT_FOUND = 127,	/* CMD not found */
};

/* Fuzzing flags given explicitly: they override the --intensity preset. */
enum fuzz_knob_flags {
	KNOB_DELAY = 1, KNOB_DELAY_PROB = 2, KNOB_DELAY_DIST = 4, KNOB_JITTER = 8,
	KNOB_SLICE_RANGE = 16, KNOB_MIGRATE = 32, KNOB_FAR = 64, KNOB_BUDGET = 128,
	KNOB_RUN = 256, KNOB_SLEEP = 512, KNOB_NO_SCALE = 1024, KNOB_PREEMPT = 2048,
	KNOB_SERIALIZE = 4096, KNOB_PREEMPT_AUTO = 8192, KNOB_PREEMPT_OFF = 16384, KNOB_EVENTS = 32768,
	KNOB_HOLD_SHARE = 65536, KNOB_STARTS = 131072, KNOB_RUN_SCALE = 262144, KNOB_POINT_PROB = 524288,
};

struct fuzz_opts {
	uint64_t slice_us;		/* base slice of every task */
	unsigned stats_interval_s;	/* 0: no periodic stats */
	unsigned batch;			/* tasks moved per steal */
	bool global_queue;		/* the seed's one shared queue, as a baseline */
	unsigned test_fault;		/* enum fuzz_test_fault; hidden, for tests */
	bool verbose;
	char **cmd;			/* NULL-terminated argv of the target; NULL: none */
	pid_t target_pid;		/* --pid: fuzz this process tree; 0: none */
	const char *cgroup;		/* --cgroup PATH */
	bool cgroup_may_be_absent;	/* serve: a cgroup not there yet is waited for */
	unsigned flight_events;		/* serve: decisions the flight recorder keeps; 0: none */
	const char *comm;		/* --comm NAME ('*' at the end: prefix) */
	const char *excludes[FUZZ_MAX_EXCLUDES];	/* --exclude-comm NAME[*], repeatable */
	unsigned nr_excludes;
	bool java;			/* --java: exclude the JVM's own threads */
	const char *intensity;		/* NULL: medium */
	bool windows;			/* --mode windows: the original tool's algorithm */
	bool pct;			/* --mode pct: priorities and change points (serialized) */
	unsigned pct_depth;		/* --depth D (pct); 0: not given */
	uint64_t pct_steps;		/* --pct-steps K: expected steps of a run; 0: learned */
	uint64_t seed;
	bool seed_set;
	uint64_t point_seed;		/* --point-seed: the points' sample; else the campaign's seed */
	bool point_seed_set;
	struct fuzz_knobs explicit_knobs;	/* values of the flags in knobs_set */
	unsigned knobs_set;		/* enum fuzz_knob_flags */
	/* the runner */
	unsigned long repeat;		/* --repeat N: at most N runs; 0: not given */
	enum { UNTIL_NONE, UNTIL_FAILURE, UNTIL_SUCCESS } until;
	double timeout_s;		/* a run longer than this is a hang; 0: none */
	double iteration_s;		/* --iteration-time: a run this long is ended, as a pass */
	const char *fail_on;		/* a run whose output matches this regex failed */
	const char *error_cmd;		/* --error-command: its success means the run failed */
	double error_interval_s;	/* --error-check-interval (default 10) */
	const char *json_path;		/* --json FILE */
	const char *trace_path;		/* --trace FILE */
	const char *points;		/* --points SPEC; NULL: none */
	double point_rate;		/* --point-rate: most point hits per second before hot ones go */
	int argc;			/* scx_fuzz's own argv, for the reproduction line */
	char **argv;
};

/* A campaign is several runs: --repeat or --until-*. */
static inline bool is_campaign(const struct fuzz_opts *o)
{
	return o->repeat || o->until != UNTIL_NONE;
}

#endif /* FUZZ_LOADER_H */
