/* SPDX-License-Identifier: GPL-2.0 */
/* errcheck.c: --error-command, run every interval during a run; success = failure. */
#ifndef FUZZ_ERRCHECK_H
#define FUZZ_ERRCHECK_H

#include <stdbool.h>
#include <sys/types.h>

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
#endif /* FUZZ_ERRCHECK_H */
