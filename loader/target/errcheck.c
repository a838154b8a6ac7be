/* SPDX-License-Identifier: GPL-2.0 */
/*
 * --error-command CMD: for targets that do not exit when they fail (a
 * service that logs an error and goes on), CMD is run with sh -c every
 * --error-check-interval seconds while a run goes on; its success (exit 0)
 * means the target has failed. A check that outlives the interval is killed
 * and counts as "no error".
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fuzz.h"
#include "errcheck.h"

void errcheck_init(struct errcheck *e, const char *cmd, double interval_s, double now)
{
	*e = (struct errcheck){ .cmd = cmd, .interval_s = interval_s, .pid = -1, .next_s = now + interval_s };
}

/* Start the next check: 0, or -errno. */
static int errcheck_spawn(struct errcheck *e, double now)
{
	pid_t pid = fork();
	int null;

	if (pid < 0)
		return -errno;
	if (!pid) {
		if ((null = open("/dev/null", O_RDWR)) >= 0) {
			dup2(null, 0);
			dup2(null, 1);
		}
		execl("/bin/sh", "sh", "-c", e->cmd, (char *)NULL);
		_exit(127);
	}
	e->pid = pid;
	e->started_s = now;
	e->checks++;
	return 0;
}

/* A child the tree reaper collected: ours if it is the running check. */
void errcheck_reaped(struct errcheck *e, pid_t pid, int status)
{
	if (!e || !e->cmd || pid != e->pid)
		return;
	e->pid = -1;
	if (e->overran) {
		e->overran = false;
	} else if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
		e->fired = true;
	} else if (WIFEXITED(status) && WEXITSTATUS(status) == 127 && !e->broken) {
		e->broken = true;
		fprintf(stderr, "scx_fuzz: --error-command exited with 127: is '%s' runnable?\n", e->cmd);
	}
}

/* Between polls of a run: start a due check, end one that overran. */
void errcheck_poll(struct errcheck *e, double now)
{
	if (!e->cmd || e->fired)
		return;
	if (e->pid > 0 && !e->overran && now - e->started_s >= e->interval_s) {
		kill(e->pid, SIGKILL);	/* reaped by the tree reaper; counts as no error */
		e->overran = true;
	}
	if (e->pid < 0 && now >= e->next_s) {
		e->next_s = now + e->interval_s;
		if (errcheck_spawn(e, now))
			fprintf(stderr, "scx_fuzz: cannot run --error-command: %m\n");
	}
}
