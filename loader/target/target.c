/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The target: forked early, held at a gate (a pipe it reads) until the
 * scheduler is attached, so CMD's first instruction already runs under it.
 * An exec failure comes back through a close-on-exec pipe as an errno.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fuzz.h"
#include "target.h"

static int is_exec_file(const char *path)
{
	struct stat st;

	if (stat(path, &st))
		return -errno;
	if (S_ISDIR(st.st_mode))
		return -EISDIR;
	return access(path, X_OK) ? -EACCES : 0;
}

/*
 * Find CMD like execvp would, to refuse a bad one before attaching.
 * Returns 0, EXIT_NOT_FOUND or EXIT_NOT_EXEC after printing why.
 */
int resolve_cmd(const char *name, char *path, size_t path_len)
{
	const char *env = getenv("PATH"), *p, *colon;
	int err = -ENOENT, e;

	if (strchr(name, '/')) {
		snprintf(path, path_len, "%s", name);
		err = is_exec_file(path);
	} else {
		for (p = env && *env ? env : "/usr/local/bin:/usr/bin:/bin"; ; p = colon + 1) {
			colon = strchrnul(p, ':');
			snprintf(path, path_len, "%.*s%s%s", (int)(colon - p), p,
				 colon == p ? "" : "/", name);
			e = is_exec_file(path);
			if (!e)
				return 0;
			if (e != -ENOENT && e != -ENOTDIR)
				err = e;	/* remember "found but not runnable" */
			if (!*colon)
				break;
		}
	}
	if (!err)
		return 0;
	fprintf(stderr, "scx_fuzz: cannot run '%s': %s\n", name,
		err == -ENOENT ? "command not found" : strerror(-err));
	return err == -ENOENT ? EXIT_NOT_FOUND : EXIT_NOT_EXEC;
}

static void child(int gate_rd, int err_wr, int out_fd, char **argv)
{
	char c;
	int e;

	if (out_fd >= 0 && (dup2(out_fd, 1) < 0 || dup2(out_fd, 2) < 0))
		_exit(EXIT_NOT_EXEC);

	/* Wait at the gate; EOF (loader closed it) means go, a byte means go too. */
	while (read(gate_rd, &c, 1) < 0 && errno == EINTR)
		;
	close(gate_rd);
	execvp(argv[0], argv);
	e = errno;
	if (write(err_wr, &e, sizeof(e)) < 0)
		_exit(EXIT_NOT_FOUND);
	_exit(e == ENOENT ? EXIT_NOT_FOUND : EXIT_NOT_EXEC);
}

/* Fork the gated child; out_fd >= 0: its stdout and stderr go there (then closed here). */
int target_spawn(struct target *t, char **argv, int out_fd)
{
	int gate[2], err[2];

	if (pipe2(gate, O_CLOEXEC))
		return -errno;
	if (pipe2(err, O_CLOEXEC)) {
		close(gate[0]);
		close(gate[1]);
		return -errno;
	}
	t->pid = fork();
	if (t->pid < 0) {
		int e = errno;

		close(gate[0]); close(gate[1]); close(err[0]); close(err[1]);
		if (out_fd >= 0)
			close(out_fd);
		return -e;
	}
	if (t->pid == 0) {
		close(gate[1]);
		close(err[0]);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		child(gate[0], err[1], out_fd, argv);
	}
	if (out_fd >= 0)
		close(out_fd);
	close(gate[0]);
	close(err[1]);
	t->gate_fd = gate[1];
	t->exec_err_fd = err[0];
	return 0;
}

/* Open the gate; returns 0 once CMD has exec'd, or the exec's -errno. */
int target_release(struct target *t)
{
	ssize_t n;
	int e = 0;

	close(t->gate_fd);
	t->gate_fd = -1;
	do
		n = read(t->exec_err_fd, &e, sizeof(e));
	while (n < 0 && errno == EINTR);
	close(t->exec_err_fd);
	t->exec_err_fd = -1;
	return n == sizeof(e) ? -e : 0;
}

/* 1 and *status set when the target has exited, 0 if still running, -errno on error. */
int target_wait(struct target *t, bool block, int *status)
{
	pid_t r;

	do
		r = waitpid(t->pid, status, block ? 0 : WNOHANG);
	while (r < 0 && errno == EINTR && block);
	if (r < 0)
		return -errno;
	return r == t->pid;
}

/* The shell's convention: the exit code, or 128 + the signal that killed it. */
int exit_status_of(int wait_status)
{
	if (WIFEXITED(wait_status))
		return WEXITSTATUS(wait_status);
	if (WIFSIGNALED(wait_status))
		return 128 + WTERMSIG(wait_status);
	return 1;
}
