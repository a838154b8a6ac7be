/* SPDX-License-Identifier: GPL-2.0 */
/*
 * From topology to dispatch-queue plan: which LLC each CPU feeds from, the
 * order in which an LLC's CPUs steal from other LLCs (same node first, then
 * by NUMA distance), and the farthest nodes for forced migrations.
 * Plain C without hwloc so unit tests can drive it with any shape.
 */
#include <stdio.h>
#include <string.h>

#include "topo.h"

static int fail(char *err, size_t len, const char *what, int n, int max)
{
	snprintf(err, len, "machine exceeds compiled limits: %d %s (max %d)", n, what, max);
	return -1;
}

/* Group CPU ids by key (LLC or node), keeping id order within each group. */
static void group_cpus(const struct topo *t, int nr_groups, int which,
		       unsigned short *start, unsigned short *list)
{
	int g, i, n = 0;

	for (g = 0; g < nr_groups; g++) {
		start[g] = n;
		for (i = 0; i < t->nr_cpus; i++) {
			const struct topo_cpu *c = &t->cpus[i];

			if ((which ? c->node : c->llc) == g)
				list[n++] = c->id;
		}
	}
	start[nr_groups] = n;
}

/* Remote nodes of `node`, nearest first; ties broken by rotating from node + 1. */
static int nodes_by_distance(const struct fuzz_plan *p, int node, int *order)
{
	int n = 0, i, j, k;

	for (k = 1; k < (int)p->nr_nodes; k++)
		order[n++] = (node + k) % p->nr_nodes;
	for (i = 1; i < n; i++) {	/* insertion sort: stable, so the rotation breaks ties */
		int v = order[i];

		for (j = i; j > 0 && p->distance[node][order[j - 1]] > p->distance[node][v]; j--)
			order[j] = order[j - 1];
		order[j] = v;
	}
	return n;
}

/*
 * Steal order of one LLC: the other LLCs of its node, then those of remote
 * nodes by distance. Lists start after the LLC's own position so that the
 * LLCs of a node do not all raid the same victim first.
 */
static void build_steal(struct fuzz_plan *p, int llc)
{
	int node = p->llc_node[llc], order[FUZZ_MAX_NODES], nr_remote, n = 0, k, r;
	int first = p->node_llc_start[node], cnt = p->node_llc_start[node + 1] - first;
	int pos = 0;

	for (k = 0; k < cnt; k++)
		if (p->node_llcs[first + k] == llc)
			pos = k;
	for (k = 1; k < cnt && n < FUZZ_MAX_STEAL; k++)
		p->llc_steal[llc][n++] = p->node_llcs[first + (pos + k) % cnt];
	nr_remote = nodes_by_distance(p, node, order);
	for (r = 0; r < nr_remote && n < FUZZ_MAX_STEAL; r++) {
		int rn = order[r], rfirst = p->node_llc_start[rn];
		int rcnt = p->node_llc_start[rn + 1] - rfirst;

		for (k = 0; k < rcnt && n < FUZZ_MAX_STEAL; k++)
			p->llc_steal[llc][n++] = p->node_llcs[rfirst + (pos + k) % rcnt];
	}
	p->llc_nr_steal[llc] = n;
}

/* The nodes at the largest distance from `node` (none on a one-node machine). */
static void build_far(struct fuzz_plan *p, int node)
{
	int max = 0, n = 0, k;

	for (k = 0; k < (int)p->nr_nodes; k++)
		if (k != node && p->distance[node][k] > max)
			max = p->distance[node][k];
	for (k = 0; k < (int)p->nr_nodes && n < FUZZ_MAX_FAR_NODES; k++)
		if (k != node && p->distance[node][k] == max)
			p->node_far[node][n++] = k;
	p->node_nr_far[node] = n;
}

int plan_build(const struct topo *t, struct fuzz_plan *p, char *err, size_t err_len)
{
	int i, j, n;

	memset(p, 0, sizeof(*p));
	if (t->nr_cpus < 1 || t->nr_cpus > FUZZ_MAX_CPUS)
		return fail(err, err_len, "CPUs", t->nr_cpus, FUZZ_MAX_CPUS);
	if (t->cpus[t->nr_cpus - 1].id >= FUZZ_MAX_CPUS)
		return fail(err, err_len, "as highest CPU id", t->cpus[t->nr_cpus - 1].id,
			    FUZZ_MAX_CPUS - 1);
	if (t->nr_llcs > FUZZ_MAX_LLCS)
		return fail(err, err_len, "LLCs", t->nr_llcs, FUZZ_MAX_LLCS);
	if (t->nr_nodes > FUZZ_MAX_NODES)
		return fail(err, err_len, "NUMA nodes", t->nr_nodes, FUZZ_MAX_NODES);

	p->nr_cpus = t->nr_cpus;
	p->nr_llcs = t->nr_llcs;
	p->nr_nodes = t->nr_nodes;
	p->nr_cpu_ids = t->cpus[t->nr_cpus - 1].id + 1;
	for (i = 0; i < FUZZ_MAX_CPUS; i++)
		p->cpu_llc[i] = FUZZ_NO_LLC;
	for (i = 0; i < t->nr_cpus; i++) {
		p->cpu_llc[t->cpus[i].id] = t->cpus[i].llc;
		p->llc_node[t->cpus[i].llc] = t->cpus[i].node;
	}
	for (i = 0; i < t->nr_nodes; i++) {
		p->node_os_id[i] = t->node_os_id[i];
		for (j = 0; j < t->nr_nodes; j++)
			p->distance[i][j] = t->distance[i][j] > 255 ? 255 : t->distance[i][j];
	}
	group_cpus(t, t->nr_llcs, 0, p->llc_cpu_start, p->llc_cpus);
	group_cpus(t, t->nr_nodes, 1, p->node_cpu_start, p->node_cpus);
	for (i = 0, n = 0; i < t->nr_nodes; i++) {
		p->node_llc_start[i] = n;
		for (j = 0; j < t->nr_llcs; j++)
			if (p->llc_node[j] == i)
				p->node_llcs[n++] = j;
	}
	p->node_llc_start[t->nr_nodes] = n;
	for (i = 0; i < t->nr_llcs; i++)
		build_steal(p, i);
	for (i = 0; i < t->nr_nodes; i++)
		build_far(p, i);
	return 0;
}

void format_cpu_list(char *buf, size_t len, const unsigned short *cpus, int n)
{
	size_t used = 0;
	int i = 0, j;

	buf[0] = '\0';
	while (i < n && used < len) {
		for (j = i; j + 1 < n && cpus[j + 1] == cpus[j] + 1; j++)
			;
		if (j == i)
			used += snprintf(buf + used, len - used, "%s%u", i ? "," : "", cpus[i]);
		else
			used += snprintf(buf + used, len - used, "%s%u-%u", i ? "," : "", cpus[i], cpus[j]);
		i = j + 1;
	}
}
