/* SPDX-License-Identifier: GPL-2.0 */
/* target.c: a child that waits at a gate until released, then execs CMD. */
#ifndef FUZZ_TARGET_H
#define FUZZ_TARGET_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

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
#endif /* FUZZ_TARGET_H */
