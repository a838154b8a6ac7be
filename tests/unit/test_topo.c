/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Topology discovery and the DSQ plan, on XML fixtures (tests/fixtures, named
 * by shape) and synthetic machines. Every shape is held to the plan's
 * invariants; some get shape-specific assertions on top.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <string.h>
#include <time.h>

#include "topo.h"

static struct topo t;
static struct fuzz_plan p;

static void load_source(const char *xml, const char *synthetic)
{
	struct topo_source src = { .xml = xml, .synthetic = synthetic };
	char err[256] = "";

	cr_assert_eq(topo_discover(&t, &src, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(plan_build(&t, &p, err, sizeof(err)), 0, "%s", err);
}

static void load_fixture(const char *name)
{
	char path[256];

	snprintf(path, sizeof(path), "tests/fixtures/%s.xml", name);
	load_source(path, NULL);
}

static int llc_of_cpu(int cpu) { return p.cpu_llc[cpu]; }

/* Every CPU is in exactly one LLC list and one node list, consistently. */
static void check_cpu_lists(void)
{
	static int seen_llc[FUZZ_MAX_CPUS], seen_node[FUZZ_MAX_CPUS];
	unsigned i, l, n;

	memset(seen_llc, 0, sizeof(seen_llc));
	memset(seen_node, 0, sizeof(seen_node));
	cr_assert_eq(p.llc_cpu_start[p.nr_llcs], p.nr_cpus);
	cr_assert_eq(p.node_cpu_start[p.nr_nodes], p.nr_cpus);
	for (l = 0; l < p.nr_llcs; l++) {
		cr_assert_lt(p.llc_cpu_start[l], p.llc_cpu_start[l + 1], "LLC %u has no CPUs", l);
		for (i = p.llc_cpu_start[l]; i < p.llc_cpu_start[l + 1]; i++) {
			int cpu = p.llc_cpus[i];

			seen_llc[cpu]++;
			cr_assert_eq(llc_of_cpu(cpu), (int)l, "cpu %d listed in LLC %u", cpu, l);
		}
	}
	for (n = 0; n < p.nr_nodes; n++)
		for (i = p.node_cpu_start[n]; i < p.node_cpu_start[n + 1]; i++) {
			int cpu = p.node_cpus[i];

			seen_node[cpu]++;
			cr_assert_eq(p.llc_node[llc_of_cpu(cpu)], n, "cpu %d: LLC outside its node", cpu);
		}
	for (i = 0; i < (unsigned)t.nr_cpus; i++) {
		int cpu = t.cpus[i].id;

		cr_assert_eq(seen_llc[cpu], 1, "cpu %d in %d LLC lists", cpu, seen_llc[cpu]);
		cr_assert_eq(seen_node[cpu], 1, "cpu %d in %d node lists", cpu, seen_node[cpu]);
	}
	for (i = 0; i < FUZZ_MAX_CPUS; i++)
		if (!seen_llc[i])
			cr_assert_eq(p.cpu_llc[i], FUZZ_NO_LLC, "absent cpu %u has an LLC", i);
}

/* Steal orders: no self or repeats, own node first and complete, then by distance. */
static void check_steal_orders(void)
{
	for (unsigned l = 0; l < p.nr_llcs; l++) {
		int node = p.llc_node[l], same = p.node_llc_start[node + 1] - p.node_llc_start[node] - 1;
		int last_dist = 0, seen_remote = 0, nr_same = 0;
		char used[FUZZ_MAX_LLCS] = { 0 };

		for (int k = 0; k < p.llc_nr_steal[l]; k++) {
			int v = p.llc_steal[l][k], vn = p.llc_node[v];

			cr_assert_neq(v, (int)l, "LLC %u steals from itself", l);
			cr_assert_not(used[v], "LLC %u lists %d twice", l, v);
			used[v] = 1;
			if (vn == node) {
				cr_assert_not(seen_remote, "LLC %u: same-node LLC %d after a remote one", l, v);
				nr_same++;
			} else {
				seen_remote = 1;
				cr_assert_geq(p.distance[node][vn], last_dist, "LLC %u: remote order", l);
				last_dist = p.distance[node][vn];
			}
		}
		cr_assert_eq(nr_same, same < FUZZ_MAX_STEAL ? same : FUZZ_MAX_STEAL,
			     "LLC %u: %d of %d same-node LLCs", l, nr_same, same);
		if (p.nr_llcs - 1 > (unsigned)same)
			cr_assert_gt(p.llc_nr_steal[l], same, "LLC %u never steals remotely", l);
	}
}

/* Far nodes really are at the largest distance, and all of them are listed. */
static void check_far_nodes(void)
{
	for (unsigned n = 0; n < p.nr_nodes; n++) {
		int max = 0, nr_max = 0;

		for (unsigned k = 0; k < p.nr_nodes; k++)
			if (k != n && p.distance[n][k] > max)
				max = p.distance[n][k];
		for (unsigned k = 0; k < p.nr_nodes; k++)
			nr_max += k != n && p.distance[n][k] == max;
		cr_assert_eq(p.node_nr_far[n], nr_max < FUZZ_MAX_FAR_NODES ? nr_max : FUZZ_MAX_FAR_NODES);
		for (int k = 0; k < p.node_nr_far[n]; k++) {
			cr_assert_neq(p.node_far[n][k], n);
			cr_assert_eq(p.distance[n][p.node_far[n][k]], max);
		}
	}
}

static void check_plan(void)
{
	cr_assert_eq((int)p.nr_cpus, t.nr_cpus);
	check_cpu_lists();
	check_steal_orders();
	check_far_nodes();
}

struct shape {
	char name[48];
	int cpus, cores, llcs, nodes, llc_level;
};

ParameterizedTestParameters(topo, fixtures)
{
	static struct shape shapes[] = {
		{ "laptop-1node-1llc-smt", 8, 4, 1, 1, 3 },
		{ "server-2socket-2nodes-per-socket", 48, 24, 4, 4, 3 },
		{ "amd-2socket-8llc-per-node", 256, 128, 16, 2, 3 },
		{ "big-1024pu-16nodes", 1024, 512, 64, 16, 3 },
		{ "sparse-cpu-ids", 16, 8, 2, 1, 3 },
		{ "no-l3-l2-only", 16, 16, 8, 2, 2 },
		{ "no-caches", 8, 4, 4, 1, 0 },
		{ "memoryless-node", 8, 8, 2, 2, 3 },
		{ "hbm-2nodes-share-cpus", 8, 8, 2, 2, 3 },
		{ "offline-smt-2nodes", 16, 12, 2, 2, 3 },
	};
	return cr_make_param_array(struct shape, shapes, sizeof(shapes) / sizeof(shapes[0]));
}

ParameterizedTest(struct shape *s, topo, fixtures)
{
	load_fixture(s->name);
	cr_assert_eq(t.nr_cpus, s->cpus, "%s: cpus", s->name);
	cr_assert_eq(t.nr_cores, s->cores, "%s: cores", s->name);
	cr_assert_eq(t.nr_llcs, s->llcs, "%s: LLCs", s->name);
	cr_assert_eq(t.nr_nodes, s->nodes, "%s: nodes", s->name);
	cr_assert_eq(t.llc_level, s->llc_level, "%s: LLC level", s->name);
	check_plan();
}

/* CPUs offline when scx_fuzz starts may come online later: they are planned, in their node's LLC. */
Test(topo, offline_cpus_join_their_nodes_llc)
{
	load_fixture("offline-smt-2nodes");
	cr_assert_eq(t.cpus[5].id, 5);
	cr_assert_eq(t.cpus[5].llc, t.cpus[4].llc, "offline CPU 5 in the LLC of CPU 4");
	cr_assert_eq(t.cpus[13].id, 13);
	cr_assert_eq(t.cpus[13].node, 1, "offline CPU 13 on node 1");
	cr_assert_eq(t.cpus[13].llc, t.cpus[12].llc);
	cr_assert_eq(p.cpu_llc[15], p.cpu_llc[8], "the plan maps it like its node's online CPUs");
}

Test(topo, two_nodes_per_socket_steals_from_sibling_node_first)
{
	load_fixture("server-2socket-2nodes-per-socket");
	cr_assert(t.firmware_distances);
	cr_assert_eq(p.distance[0][1], 12);
	cr_assert_eq(p.llc_nr_steal[0], 3);
	cr_assert_eq(p.llc_steal[0][0], 1, "the other node of the same socket comes first");
	cr_assert_eq(p.node_nr_far[0], 2);
	cr_assert_eq(p.node_far[0][0], 2);
	cr_assert_eq(p.node_far[0][1], 3);
}

Test(topo, amd_part_steals_within_node_then_across)
{
	load_fixture("amd-2socket-8llc-per-node");
	cr_assert_eq(p.llc_nr_steal[3], 15);
	for (int k = 0; k < 7; k++)
		cr_assert_eq(p.llc_node[p.llc_steal[3][k]], 0);
	cr_assert_eq(p.llc_steal[3][0], 4, "rotated: LLC 3 starts after itself");
	cr_assert_eq(p.llc_node[p.llc_steal[3][7]], 1);
}

Test(topo, sparse_ids_are_kept)
{
	load_fixture("sparse-cpu-ids");
	cr_assert_eq(p.nr_cpu_ids, 74);
	cr_assert_eq(p.cpu_llc[4], FUZZ_NO_LLC);
	cr_assert_eq(p.cpu_llc[63], FUZZ_NO_LLC);
	cr_assert_eq(p.cpu_llc[64], p.cpu_llc[73]);
	cr_assert_neq(p.cpu_llc[0], p.cpu_llc[64]);
}

Test(topo, memory_only_nodes_get_no_queues)
{
	load_fixture("hbm-2nodes-share-cpus");
	cr_assert_eq(p.node_os_id[0], 0);
	cr_assert_eq(p.node_os_id[1], 2, "CPUs belong to the first node covering them");
}

Test(topo, memoryless_node_keeps_its_cpus)
{
	load_fixture("memoryless-node");
	cr_assert_eq(p.node_cpu_start[1] - p.node_cpu_start[0], 4);
	cr_assert_eq(p.node_cpu_start[2] - p.node_cpu_start[1], 4);
}

Test(topo, synthetic_1024_cpus_fast)
{
	struct timespec a, b;

	clock_gettime(CLOCK_MONOTONIC, &a);
	load_source(NULL, "pack:8 numa:2 l3:4 core:8 pu:2");
	clock_gettime(CLOCK_MONOTONIC, &b);
	cr_assert_eq(t.nr_cpus, 1024);
	cr_assert_eq(t.nr_nodes, 16);
	cr_assert_eq(t.nr_llcs, 64);
	cr_assert_lt((b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9, 1.0, "generous bound");
	check_plan();
	/* No firmware distances: the other node of the package is nearest, other packages far. */
	cr_assert_eq(p.llc_node[p.llc_steal[0][3]], 1);
	cr_assert_eq(p.node_nr_far[0], 14);
}

struct too_big {
	char synthetic[64], message[64];
};

ParameterizedTestParameters(topo, limits)
{
	static struct too_big cases[] = {
		{ "pack:2 numa:40 core:1 pu:1", "80 NUMA nodes (max 64)" },
		{ "pack:1 l3:600 core:1 pu:1", "600 LLCs (max 512)" },
		{ "pack:4 core:600 pu:2", "more than 4096 CPUs" },
	};
	return cr_make_param_array(struct too_big, cases, sizeof(cases) / sizeof(cases[0]));
}

ParameterizedTest(struct too_big *c, topo, limits)
{
	struct topo_source src = { .synthetic = c->synthetic };
	char err[256] = "";

	if (!topo_discover(&t, &src, err, sizeof(err)))
		cr_assert_neq(plan_build(&t, &p, err, sizeof(err)), 0, "%s accepted", c->synthetic);
	cr_assert(strstr(err, "exceeds compiled limits"), "%s", err);
	cr_assert(strstr(err, c->message), "%s", err);
}

Test(topo, bad_sources_fail_with_a_reason)
{
	struct topo_source bad_syn = { .synthetic = "pack:banana" }, bad_xml = { .xml = "/nonexistent.xml" };
	char err[256];

	cr_assert_neq(topo_discover(&t, &bad_syn, err, sizeof(err)), 0);
	cr_assert(strstr(err, "invalid synthetic topology description 'pack:banana'"), "%s", err);
	cr_assert_neq(topo_discover(&t, &bad_xml, err, sizeof(err)), 0);
	cr_assert(strstr(err, "cannot read topology XML '/nonexistent.xml'"), "%s", err);
}

/* A hand-made ring of 4 nodes: plan.c alone, with distances no fixture has. */
Test(plan, ring_distances_order_steals_and_far_nodes)
{
	static const int ring[4][4] = { { 10, 16, 22, 16 }, { 16, 10, 16, 22 },
					{ 22, 16, 10, 16 }, { 16, 22, 16, 10 } };
	char err[128];

	memset(&t, 0, sizeof(t));
	t.nr_cpus = t.nr_cores = t.nr_llcs = 8;
	t.nr_nodes = t.nr_pkgs = 4;
	for (int i = 0; i < 8; i++)
		t.cpus[i] = (struct topo_cpu){ .id = i, .core = i, .llc = i, .node = i / 2, .pkg = i / 2 };
	for (int a = 0; a < 4; a++) {
		t.node_os_id[a] = a;
		for (int b = 0; b < 4; b++)
			t.distance[a][b] = ring[a][b];
	}
	cr_assert_eq(plan_build(&t, &p, err, sizeof(err)), 0);
	check_plan();
	cr_assert_eq(p.llc_steal[0][0], 1, "same node first");
	cr_assert_eq(p.llc_node[p.llc_steal[0][1]], 1, "then the nearer neighbours 1 and 3");
	cr_assert_eq(p.llc_node[p.llc_steal[0][3]], 3);
	cr_assert_eq(p.llc_node[p.llc_steal[0][5]], 2, "the opposite node last");
	cr_assert_eq(p.node_nr_far[0], 1);
	cr_assert_eq(p.node_far[0][0], 2);
}

Test(plan, cpu_list_format)
{
	unsigned short cpus[] = { 0, 1, 2, 3, 8, 10, 11 };
	char buf[64];

	format_cpu_list(buf, sizeof(buf), cpus, 7);
	cr_assert_str_eq(buf, "0-3,8,10-11");
}
