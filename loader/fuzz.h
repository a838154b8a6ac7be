/* SPDX-License-Identifier: GPL-2.0 */
/* Loader-internal interfaces: options, preflight checks, target, scheduler. */
#ifndef FUZZ_LOADER_H
#define FUZZ_LOADER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#define SCX_FUZZ_VERSION "0.1.0"

/* Exit statuses of scx_fuzz itself; anything else is the target's own. */
enum fuzz_exit_status {
	EXIT_USAGE = 2,		/* bad flags or input */
	EXIT_SCHED = 3,		/* could not attach, or the kernel ejected the scheduler */
	EXIT_NOT_EXEC = 126,	/* CMD exists but cannot be executed */
	EXIT_NOT_FOUND = 127,	/* CMD not found */
};

struct fuzz_opts {
	uint64_t slice_us;
	unsigned stats_interval_s;	/* 0: no periodic stats */
	unsigned batch;			/* tasks moved per steal */
	bool global_queue;		/* the seed's one shared queue, as a baseline */
	unsigned test_fault;		/* enum fuzz_test_fault; hidden, for tests */
	bool verbose;
	char **cmd;			/* NULL-terminated argv of the target; NULL: none */
};

/* opts.c: returns 0, or EXIT_USAGE after printing why; *done set for --help/--version. */
int parse_opts(int argc, char **argv, struct fuzz_opts *o, bool *done, FILE *out);

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
int target_spawn(struct target *t, char **argv);
int target_release(struct target *t);
int target_wait(struct target *t, bool block, int *status);
int exit_status_of(int wait_status);

/* stats.c: one line of summed counters, with the ratios that matter. */
void stats_print(FILE *out, const uint64_t *sums);

/* bpflog.c: libbpf output capture; the tail is shown when loading fails. */
void bpflog_install(bool verbose);
size_t bpflog_tail(char *buf, size_t len, unsigned nlines);
void bpflog_reset(void);
void bpflog_add(const char *text);

#endif /* FUZZ_LOADER_H */
