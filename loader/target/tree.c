/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The target's process tree after a run. scx_fuzz is a child subreaper, so
 * whatever CMD leaves behind (daemons it forked, children of a shell that
 * exited) is reparented to us instead of init, and can be found and killed
 * when the run ends or times out.
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fuzz.h"
#include "tree.h"

#define MAX_PROCS 65536

int tree_init(void)
{
	return prctl(PR_SET_CHILD_SUBREAPER, 1) ? -errno : 0;
}

/* The parent pid of `pid` from /proc, or -1. */
static pid_t ppid_of(pid_t pid)
{
	char path[64], buf[512], *p;
	FILE *f;
	int ppid = -1;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if (!(f = fopen(path, "r")))
		return -1;
	/* "pid (comm) state ppid ...": comm may hold spaces and parentheses */
	if (fgets(buf, sizeof(buf), f) && (p = strrchr(buf, ')')))
		sscanf(p + 1, " %*c %d", &ppid);
	fclose(f);
	return ppid;
}

/* Every descendant of `root` now alive, parents before children; returns how many. */
static size_t descendants(pid_t root, pid_t *out, size_t max)
{
	static pid_t pids[MAX_PROCS], ppids[MAX_PROCS];
	size_t n = 0, found = 0, i, j;
	struct dirent *d;
	DIR *dir = opendir("/proc");

	if (!dir)
		return 0;
	while ((d = readdir(dir)) && n < MAX_PROCS) {
		pid_t pid = atoi(d->d_name);

		if (pid > 0 && (ppids[n] = ppid_of(pid)) > 0)
			pids[n++] = pid;
	}
	closedir(dir);
	out[found++] = root;
	for (i = 0; i < found; i++)		/* breadth first over the parent links */
		for (j = 0; j < n && found < max; j++)
			if (ppids[j] == out[i])
				out[found++] = pids[j];
	memmove(out, out + 1, (found - 1) * sizeof(*out));
	return found - 1;
}

/* Kill everything left of the target's tree (all our descendants) and reap it. */
void tree_kill(void)
{
	static pid_t left[MAX_PROCS];
	int round, status;
	size_t n, i;

	for (round = 0; round < 100; round++) {
		while (waitpid(-1, &status, WNOHANG) > 0)
			;
		n = descendants(getpid(), left, MAX_PROCS);
		if (!n)
			return;
		for (i = 0; i < n; i++)
			kill(left[i], SIGKILL);
		usleep(10000);
	}
}

/*
 * Reap every child that has exited; returns 1 with *status set if one of
 * them was `main` (the target), 0 if it still runs, -errno on error. Other
 * children are orphans of the tree, or `e`'s error check (told of its end).
 */
int tree_reap(pid_t main, int *status, struct errcheck *e)
{
	int st, found = 0;
	pid_t r;

	while ((r = waitpid(-1, &st, WNOHANG)) > 0) {
		if (r == main) {
			*status = st;
			found = 1;
		} else {
			errcheck_reaped(e, r, st);
		}
	}
	if (r < 0 && errno != ECHILD)
		return -errno;
	return found;
}
