/* SPDX-License-Identifier: GPL-2.0 */
/* --points through the whole target tree (follow.c). */
#ifndef FUZZ_FOLLOW_H
#define FUZZ_FOLLOW_H

#include <stdbool.h>
#include <stddef.h>

#include "images.h"
#include "probes.h"

struct sched;

struct follow {
	struct images images;		/* images.v[0]: the command's own */
	struct probes *pr;
	struct sched *s;
	bool verbose;
	size_t nr_procs;		/* processes given points after their exec or fork */
	pid_t answered;			/* the run's command: answered before its exec */
};

/* Watch the tree: from now on each process that execs or forks gets its points before it runs. */
int follow_start(struct follow *f, struct sched *s, struct probes *pr, bool verbose);
/* The run's command, its points placed: its exec need not wait for them. */
void follow_command(struct follow *f, pid_t pid, bool pointed);
/* The answers due: every waiting process's points placed. */
void follow_drain(struct follow *f);
int follow_fd(const struct follow *f);

#endif /* FUZZ_FOLLOW_H */
