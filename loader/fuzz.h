/* SPDX-License-Identifier: GPL-2.0 */
/* Loader-internal interfaces: options, preflight checks, target, scheduler. */
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

/* main.c: the SIGINT/SIGTERM received, 0 if none */
extern volatile sig_atomic_t fuzz_stop_signal;

/* opts.c: returns 0, or EXIT_USAGE after printing why; *done set for --help/--version. */
int parse_opts(int argc, char **argv, struct fuzz_opts *o, bool *done, FILE *out);

/* knobs.c: presets, fuzzing-flag parsers, and the resolved, checked knobs. */
int intensity_preset(const char *name, struct fuzz_knobs *k);
void windows_preset(struct fuzz_knobs *k);
int parse_duration_ns(const char *s, __u64 *ns);
int parse_range_ns(const char *s, __u64 *lo, __u64 *hi);
int parse_percent_ppm(const char *s, __u32 *ppm);
int parse_dist(const char *s, __u32 *dist);
int knobs_resolve(const struct fuzz_opts *o, struct fuzz_knobs *k, char *err, size_t err_len);

/* targets.c: --pid/--cgroup/--comm into the knobs; 0 or EXIT_USAGE with `err`. */
int cgroup_resolve(const char *path, __u64 *id, __u32 *level, char *err, size_t err_len);
int targets_resolve(const struct fuzz_opts *o, struct fuzz_knobs *k, char *err, size_t err_len);

/* preflight.c: checks against a sysfs root ("/sys" normally). 0 or EXIT_SCHED. */
int check_root(uid_t euid);
int check_sched_ext(const char *sysfs);
int read_sched_ext_state(const char *sysfs, char *state, size_t state_len, char *ops, size_t ops_len);

/* target.c: a child that waits at a gate until released, then execs CMD. */
struct target {
	pid_t pid;
	int gate_fd;		/* write end: closing it releases the child */
	int exec_err_fd;	/* read end: receives errno if exec fails */
};
int resolve_cmd(const char *name, char *path, size_t path_len);
int target_spawn(struct target *t, char **argv, int out_fd);
int target_release(struct target *t);
int target_wait(struct target *t, bool block, int *status);
int exit_status_of(int wait_status);

/* opts.c's option table, re-read by repro.c. */
extern const struct option fuzz_longopts[];
extern const char fuzz_shortopts[];

/* repro.c: per-run seeds and the line that repeats a run. */
__u64 run_seed_of(__u64 campaign_seed, unsigned long run);
void format_repro(int argc, char **argv, __u64 seed, uint64_t pct_steps, char *buf, size_t len);

/* errcheck.c: --error-command, run every interval during a run; success = failure. */
struct errcheck {
	const char *cmd;	/* NULL: no checks */
	double interval_s, next_s, started_s;
	pid_t pid;		/* the running check, -1 none */
	bool overran;		/* killed for outliving the interval */
	bool fired;		/* a check succeeded: the target failed */
	bool broken;		/* sh could not run it (127), said once */
	unsigned long checks;
};
void errcheck_init(struct errcheck *e, const char *cmd, double interval_s, double now);
void errcheck_poll(struct errcheck *e, double now);
void errcheck_reaped(struct errcheck *e, pid_t pid, int status);

/* tree.c: the target's process tree; we are its subreaper. */
int tree_init(void);
void tree_kill(void);
int tree_reap(pid_t main, int *status, struct errcheck *e);

/* stats.c: counter names, and one line of summed counters with the ratios that matter. */
extern const char *const fuzz_stat_names[FUZZ_NR_STATS];
void stats_print(FILE *out, const uint64_t *sums);

/* json.c: a JSON string body (no quotes) of at most `max` bytes of `s`, escaped. */
void json_chars(FILE *f, const char *s, size_t max);

/* bpflog.c: libbpf output capture; the tail is shown when loading fails. */
void bpflog_install(bool verbose);
size_t bpflog_tail(char *buf, size_t len, unsigned nlines);
void bpflog_reset(void);
void bpflog_add(const char *text);

#endif /* FUZZ_LOADER_H */
