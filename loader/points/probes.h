/* SPDX-License-Identifier: GPL-2.0 */
/* --points placed as uprobes in the target tree's processes (probes.c). */
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

/* A process with points: which of the shared set (the idx list belongs to its image). */
struct probe_proc {
	pid_t pid;
	const uint32_t *idx;
	size_t n;
	size_t first_link, nr_links;	/* its links in probes.links */
};

struct probes {
	const struct point_set *ps;
	struct bpf_link **links;
	size_t nlinks, links_cap;
	struct probe_proc *procs;
	size_t nprocs, procs_cap;
	size_t placed, refused;	/* this run: points the kernel took, and refused */
	int last_err;		/* errno of the last refusal */
	uint8_t *dropped;	/* bitmap: points hit too often, left out from now on */
	size_t nr_dropped;
	__u64 *last_hits;	/* each point's hits at the last check */
};

/* Place points idx[0..n) of `ps` in process `pid`: how many the kernel took, or -errno. */
long probes_add(struct probes *pr, struct scx_fuzz *skel, const struct point_set *ps, pid_t pid,
		const uint32_t *idx, size_t n);
/* The point list process `pid` has (its image's), or NULL if it has none. */
const uint32_t *probes_of(const struct probes *pr, pid_t pid, bool *known);
/* Process `pid` runs another program now: its links go. */
void probes_remove(struct probes *pr, pid_t pid);
/* Place them all again, without the dropped ones, in the processes still alive. */
void probes_reattach(struct probes *pr, struct scx_fuzz *skel);
/* The run is over: every link goes, and every process is forgotten. */
void probes_detach(struct probes *pr);
bool probes_dropped(const struct probes *pr, size_t i);
void probes_baseline(struct probes *pr, struct scx_fuzz *skel);
size_t probes_drop_hot(struct probes *pr, struct scx_fuzz *skel, double secs, double max_rate);
void probes_free(struct probes *pr);

#endif /* FUZZ_PROBES_H */
