/* SPDX-License-Identifier: GPL-2.0 */
/* --points placed as uprobes in the target process (probes.c). */
#ifndef FUZZ_PROBES_H
#define FUZZ_PROBES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <linux/types.h>

#include "points.h"

struct scx_fuzz;
struct bpf_link;

enum { PROBES_MAX_LINKS = 64 };

struct probes {
	const struct point_set *ps;
	struct bpf_link *links[PROBES_MAX_LINKS];
	int nlinks;
	size_t placed, refused;	/* this run: points the kernel took, and refused */
	int last_err;		/* errno of the last refusal */
	uint8_t *dropped;	/* bitmap: points hit too often, left out from now on */
	size_t nr_dropped;
	__u64 *last_hits;	/* each point's hits at the last check */
};

/* Place the points in process `pid`; 0, or -errno when none could be placed. */
int probes_attach(struct probes *pr, struct scx_fuzz *skel, const struct point_set *ps, pid_t pid);
void probes_detach(struct probes *pr);
bool probes_dropped(const struct probes *pr, size_t i);
void probes_baseline(struct probes *pr, struct scx_fuzz *skel);
size_t probes_drop_hot(struct probes *pr, struct scx_fuzz *skel, double secs, double max_rate);
void probes_free(struct probes *pr);

#endif /* FUZZ_PROBES_H */
