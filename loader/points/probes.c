/* SPDX-License-Identifier: GPL-2.0 */
/*
 * --points as uprobes: for each process of the run's tree that has points,
 * one uprobe_multi link per binary and direction (entries, lock returns),
 * filtered to that process, each point's index as its cookie. The links are file descriptors of this
 * process, so the kernel removes the probes when we exit, even on SIGKILL.
 * An instruction the kernel cannot probe fails a whole link: such a batch is
 * split in halves until the bad points are found and left out. Points hit
 * too often (a trap costs microseconds) are dropped while the run goes on.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "probes.h"
#include "scx_fuzz.h"
#include "scx_fuzz.skel.h"

static bool grow(void **v, size_t *cap, size_t n, size_t elem)
{
	size_t ncap = *cap ? 2 * *cap : 16;
	void *nv;

	if (n < *cap)
		return true;
	if (!(nv = realloc(*v, ncap * elem)))
		return false;
	*v = nv;
	*cap = ncap;
	return true;
}

/* Attach points idx[0..n) of one binary and direction; halves a batch the kernel refuses. */
static void attach_batch(struct probes *pr, struct bpf_program *prog, pid_t pid, const char *path,
			 const uint32_t *idx, size_t n, bool ret)
{
	LIBBPF_OPTS(bpf_uprobe_multi_opts, opts, .retprobe = ret, .cnt = n);
	unsigned long *offsets;
	__u64 *cookies;
	struct bpf_link *link;

	if (!n || !grow((void **)&pr->links, &pr->links_cap, pr->nlinks, sizeof(*pr->links)))
		return;
	offsets = calloc(n, sizeof(*offsets));
	cookies = calloc(n, sizeof(*cookies));
	if (!offsets || !cookies)
		goto out;
	for (size_t i = 0; i < n; i++) {
		offsets[i] = pr->ps->p[idx[i]].offset;
		cookies[i] = idx[i];
	}
	opts.offsets = offsets;
	opts.cookies = cookies;
	link = bpf_program__attach_uprobe_multi(prog, pid, path, NULL, &opts);
	if (link) {
		pr->links[pr->nlinks++] = link;
		pr->placed += n;
	} else if (n == 1) {
		pr->refused++;
		pr->last_err = errno;
	} else {
		attach_batch(pr, prog, pid, path, idx, n / 2, ret);
		attach_batch(pr, prog, pid, path, idx + n / 2, n - n / 2, ret);
	}
out:
	free(offsets);
	free(cookies);
}

/* One process's points, a link per binary and direction; how many were placed. */
static size_t attach_proc(struct probes *pr, struct scx_fuzz *skel, struct probe_proc *pp)
{
	uint32_t *batch = calloc(pp->n ? pp->n : 1, sizeof(*batch));
	size_t before = pr->placed;

	pp->first_link = pr->nlinks;
	pp->nr_links = 0;
	if (!batch)
		return 0;
	for (unsigned b = 0; b < pr->ps->npaths; b++) {
		for (int ret = 0; ret <= 1; ret++) {
			size_t n = 0;

			for (size_t i = 0; i < pp->n; i++) {
				const struct point *p = &pr->ps->p[pp->idx[i]];

				if (p->binary == b && (p->kind == POINT_LOCK_RET) == ret && !probes_dropped(pr, pp->idx[i]))
					batch[n++] = pp->idx[i];
			}
			attach_batch(pr, skel->progs.fuzz_point_hit, pp->pid, pr->ps->paths[b], batch, n, ret);
		}
	}
	pp->nr_links = pr->nlinks - pp->first_link;
	free(batch);
	return pr->placed - before;
}

long probes_add(struct probes *pr, struct scx_fuzz *skel, const struct point_set *ps, pid_t pid,
		const uint32_t *idx, size_t n)
{
	struct probe_proc *pp;
	size_t placed;

	pr->ps = ps;
	if (!pr->last_hits)
		pr->last_hits = calloc(FUZZ_MAX_POINTS, sizeof(*pr->last_hits));
	if (!pr->dropped)
		pr->dropped = calloc(FUZZ_MAX_POINTS / 8, 1);
	if (!pr->last_hits || !pr->dropped ||
	    !grow((void **)&pr->procs, &pr->procs_cap, pr->nprocs, sizeof(*pr->procs)))
		return -ENOMEM;
	pp = &pr->procs[pr->nprocs++];
	*pp = (struct probe_proc){ .pid = pid, .idx = idx, .n = n };
	if (!n)
		return 0;
	pr->last_err = 0;
	placed = attach_proc(pr, skel, pp);
	return placed ? (long)placed : -(pr->last_err ? pr->last_err : ENOENT);
}

const uint32_t *probes_of(const struct probes *pr, pid_t pid, bool *known)
{
	for (size_t i = 0; i < pr->nprocs; i++) {
		if (pr->procs[i].pid == pid) {
			*known = true;
			return pr->procs[i].idx;
		}
	}
	*known = false;
	return NULL;
}

void probes_remove(struct probes *pr, pid_t pid)
{
	for (size_t i = 0; i < pr->nprocs; i++) {
		struct probe_proc *pp = &pr->procs[i];

		if (pp->pid != pid)
			continue;
		for (size_t l = pp->first_link; l < pp->first_link + pp->nr_links; l++) {
			bpf_link__destroy(pr->links[l]);
			pr->links[l] = NULL;
		}
		pr->procs[i] = pr->procs[--pr->nprocs];
		return;
	}
}

static void destroy_links(struct probes *pr)
{
	for (size_t i = 0; i < pr->nlinks; i++)
		bpf_link__destroy(pr->links[i]);
	pr->nlinks = 0;
}

void probes_reattach(struct probes *pr, struct scx_fuzz *skel)
{
	size_t live = 0;

	destroy_links(pr);
	for (size_t i = 0; i < pr->nprocs; i++) {
		if (kill(pr->procs[i].pid, 0) && errno == ESRCH)
			continue;	/* gone: its links went with it */
		pr->procs[live++] = pr->procs[i];
		attach_proc(pr, skel, &pr->procs[live - 1]);
	}
	pr->nprocs = live;
}

/*
 * Each run starts with all its points: a drop kept for the campaign let one
 * run's hot second take a race's instructions from every later run (measured:
 * pairstore, 0 of 12 runs after 26 drops, against 8 of 10 in other campaigns),
 * and made a run's reproduction line describe another run.
 */
void probes_detach(struct probes *pr)
{
	destroy_links(pr);
	pr->nprocs = 0;
	pr->placed = pr->refused = 0;
	pr->nr_dropped = 0;
	if (pr->dropped)
		memset(pr->dropped, 0, FUZZ_MAX_POINTS / 8);
}

bool probes_dropped(const struct probes *pr, size_t i)
{
	return pr->dropped && pr->dropped[i / 8] & (1u << (i % 8));
}

/*
 * When the points were hit more than `max_rate` times a second since the
 * last call (`secs` ago), the hottest are dropped for the rest of the
 * run until the others' rate is below a quarter of it. Returns how many; the
 * caller attaches again without them.
 */
/* Each point's hits so far into `hits` (ps->n entries); those that cannot be read keep their value. */
static void read_hits(const struct point_set *ps, struct scx_fuzz *skel, __u64 *hits)
{
	for (__u32 key = 0; key < ps->n; key++)
		bpf_map__lookup_elem(skel->maps.point_hits, &key, sizeof(key), &hits[key], sizeof(__u64), 0);
}

/* A run starts: the hits so far are the baseline of its first check (earlier runs' do not count). */
void probes_baseline(struct probes *pr, struct scx_fuzz *skel)
{
	if (pr->ps && pr->ps->n && pr->last_hits)
		read_hits(pr->ps, skel, pr->last_hits);
}

size_t probes_drop_hot(struct probes *pr, struct scx_fuzz *skel, double secs, double max_rate)
{
	const struct point_set *ps = pr->ps;
	size_t dropped = 0;
	uint64_t total = 0;
	__u64 *hits;

	if (!ps || !ps->n || secs <= 0)
		return 0;
	hits = calloc(ps->n, sizeof(*hits));
	if (!hits || !pr->last_hits || !pr->dropped) {
		free(hits);
		return 0;
	}
	memcpy(hits, pr->last_hits, ps->n * sizeof(*hits));
	read_hits(ps, skel, hits);
	for (size_t i = 0; i < ps->n; i++)
		total += hits[i] - pr->last_hits[i];
	/* over the cap: drop the hottest points until what is left is below a quarter of it */
	while (total / secs > max_rate / 4) {
		size_t hot = ps->n;
		uint64_t most = 0;

		for (size_t i = 0; i < ps->n; i++) {
			uint64_t d = hits[i] - pr->last_hits[i];

			if (!probes_dropped(pr, i) && d > most) {
				most = d;
				hot = i;
			}
		}
		if (hot == ps->n)
			break;
		pr->dropped[hot / 8] |= 1u << (hot % 8);
		total -= most;
		dropped++;
	}
	memcpy(pr->last_hits, hits, ps->n * sizeof(*hits));
	free(hits);
	pr->nr_dropped += dropped;
	return dropped;
}

void probes_free(struct probes *pr)
{
	probes_detach(pr);
	free(pr->links);
	free(pr->procs);
	free(pr->dropped);
	free(pr->last_hits);
	memset(pr, 0, sizeof(*pr));
}
