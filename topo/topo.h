/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The machine's shape (topo.c, with hwloc) and the dispatch-queue plan made
 * from it (plan.c, plain C). Everything scheduling-related is laid out from
 * these two, so scx_fuzz scales with the real machine.
 */
#ifndef FUZZ_TOPO_H
#define FUZZ_TOPO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "scx_fuzz.h"

struct topo_cpu {
	int id;		/* kernel CPU id */
	int core;	/* dense core index */
	int llc;	/* dense LLC index (an LLC never spans nodes: split if it would) */
	int node;	/* dense node index */
	int pkg;	/* dense package index */
};

struct topo {
	int nr_cpus, nr_cores, nr_llcs, nr_nodes, nr_pkgs;
	int llc_level;			/* cache level of the LLCs: 3, 2, ...; 0 = cores */
	bool firmware_distances;	/* false: distances made up from packages */
	struct topo_cpu cpus[FUZZ_MAX_CPUS];	/* sorted by id */
	int node_os_id[FUZZ_MAX_NODES];
	int distance[FUZZ_MAX_NODES][FUZZ_MAX_NODES];
};

/* Where the topology comes from: the running system, or a description. */
struct topo_source {
	const char *synthetic;	/* hwloc synthetic description, e.g. "pack:2 numa:2 l3:4 core:8 pu:2" */
	const char *xml;	/* hwloc XML file */
};

/* 0, or -1 with a one-line reason in err (too large, bad description, ...). */
int topo_discover(struct topo *t, const struct topo_source *src, char *err, size_t err_len);

/* Build the plan; 0, or -1 with a reason when the topology exceeds the limits. */
int plan_build(const struct topo *t, struct fuzz_plan *p, char *err, size_t err_len);

/* Write "0-3,8,10-11" for a sorted list of CPU ids. */
void format_cpu_list(char *buf, size_t len, const unsigned short *cpus, int n);

/* Human-readable and JSON reports of a topology and its plan. */
void topo_print(FILE *out, const struct topo *t, const struct fuzz_plan *p);
void topo_print_json(FILE *out, const struct topo *t, const struct fuzz_plan *p);

/* `scx_fuzz topo ...`: returns an exit status. */
int topo_main(int argc, char **argv);

#endif /* FUZZ_TOPO_H */
