/* SPDX-License-Identifier: GPL-2.0 */
/* `scx_fuzz topo`: show the discovered topology and the plan made from it. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topo.h"

enum { LIST_LEN = 16384 };

static const char *llc_kind(const struct topo *t)
{
	static char buf[16];

	if (!t->llc_level)
		return "core";
	snprintf(buf, sizeof(buf), "L%d", t->llc_level);
	return buf;
}

static int nr_far_cpus(const struct fuzz_plan *p, int node)
{
	int n = 0;

	for (int k = 0; k < p->node_nr_far[node]; k++) {
		int far = p->node_far[node][k];

		n += p->node_cpu_start[far + 1] - p->node_cpu_start[far];
	}
	return n;
}

void topo_print(FILE *out, const struct topo *t, const struct fuzz_plan *p)
{
	static char list[LIST_LEN];
	int i, k;

	fprintf(out, "topology: %d CPUs, %d cores, %d LLCs (%s), %d NUMA nodes, %d packages\n",
		t->nr_cpus, t->nr_cores, t->nr_llcs, llc_kind(t), t->nr_nodes, t->nr_pkgs);
	fprintf(out, "distances: %s\n", t->firmware_distances ? "from firmware" :
		"none from firmware; 10 local, 12 same package, 20 remote");
	for (i = 0; i < t->nr_nodes; i++) {
		format_cpu_list(list, sizeof(list), &p->node_cpus[p->node_cpu_start[i]],
				p->node_cpu_start[i + 1] - p->node_cpu_start[i]);
		fprintf(out, "node %d: llcs %d-%d cpus %s\n", p->node_os_id[i],
			p->node_llcs[p->node_llc_start[i]], p->node_llcs[p->node_llc_start[i + 1] - 1], list);
	}
	for (i = 0; i < t->nr_llcs; i++) {
		format_cpu_list(list, sizeof(list), &p->llc_cpus[p->llc_cpu_start[i]],
				p->llc_cpu_start[i + 1] - p->llc_cpu_start[i]);
		fprintf(out, "llc %d: node %d cpus %s\n", i, p->node_os_id[p->llc_node[i]], list);
	}
	fprintf(out, "steal order of llc 0:");
	for (k = 0; k < p->llc_nr_steal[0]; k++)
		fprintf(out, " %d%s", p->llc_steal[0][k],
			p->llc_node[p->llc_steal[0][k]] == p->llc_node[0] ? "" : "*");
	fprintf(out, "%s\n", p->llc_nr_steal[0] ? "  (* = other node)" : " (none: one LLC)");
	fprintf(out, "far nodes of node %d:", p->node_os_id[0]);
	for (k = 0; k < p->node_nr_far[0]; k++)
		fprintf(out, " %d", p->node_os_id[p->node_far[0][k]]);
	fprintf(out, " (%d far CPUs)\n", nr_far_cpus(p, 0));
}

static void json_int_list(FILE *out, const unsigned short *v, int n)
{
	fputc('[', out);
	for (int i = 0; i < n; i++)
		fprintf(out, "%s%u", i ? "," : "", v[i]);
	fputc(']', out);
}

void topo_print_json(FILE *out, const struct topo *t, const struct fuzz_plan *p)
{
	int i, j;

	fprintf(out, "{\"cpus\":%d,\"cores\":%d,\"llcs\":%d,\"llc_kind\":\"%s\",\"nodes\":%d,"
		"\"packages\":%d,\"firmware_distances\":%s,\n \"node_list\":[", t->nr_cpus,
		t->nr_cores, t->nr_llcs, llc_kind(t), t->nr_nodes, t->nr_pkgs,
		t->firmware_distances ? "true" : "false");
	for (i = 0; i < t->nr_nodes; i++) {
		fprintf(out, "%s\n  {\"id\":%d,\"llcs\":", i ? "," : "", p->node_os_id[i]);
		json_int_list(out, &p->node_llcs[p->node_llc_start[i]],
			      p->node_llc_start[i + 1] - p->node_llc_start[i]);
		fprintf(out, ",\"cpus\":");
		json_int_list(out, &p->node_cpus[p->node_cpu_start[i]],
			      p->node_cpu_start[i + 1] - p->node_cpu_start[i]);
		fprintf(out, ",\"distances\":[");
		for (j = 0; j < t->nr_nodes; j++)
			fprintf(out, "%s%d", j ? "," : "", t->distance[i][j]);
		fprintf(out, "],\"far_nodes\":[");
		for (j = 0; j < p->node_nr_far[i]; j++)
			fprintf(out, "%s%d", j ? "," : "", p->node_os_id[p->node_far[i][j]]);
		fprintf(out, "]}");
	}
	fprintf(out, "],\n \"llc_list\":[");
	for (i = 0; i < t->nr_llcs; i++) {
		fprintf(out, "%s\n  {\"id\":%d,\"node\":%d,\"cpus\":", i ? "," : "", i,
			p->node_os_id[p->llc_node[i]]);
		json_int_list(out, &p->llc_cpus[p->llc_cpu_start[i]],
			      p->llc_cpu_start[i + 1] - p->llc_cpu_start[i]);
		fprintf(out, ",\"steal\":");
		json_int_list(out, p->llc_steal[i], p->llc_nr_steal[i]);
		fputc('}', out);
	}
	fprintf(out, "]}\n");
}

static const char topo_usage[] =
"usage: scx_fuzz topo [--synthetic DESC | --xml FILE] [--json]\n"
"Print the machine's topology (hwloc) and the dispatch-queue plan made from it.\n"
"  --synthetic DESC  an hwloc synthetic machine, e.g. \"pack:8 numa:2 l3:4 core:8 pu:2\"\n"
"  --xml FILE        an hwloc XML topology (lstopo --of xml)\n"
"  --json            machine-readable output\n";

int topo_main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "synthetic", required_argument, NULL, 's' },
		{ "xml", required_argument, NULL, 'x' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	static struct topo t;
	static struct fuzz_plan p;
	struct topo_source src = { 0 };
	bool json = false;
	char err[256];
	int c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 's': src.synthetic = optarg; break;
		case 'x': src.xml = optarg; break;
		case 'j': json = true; break;
		case 'h': fputs(topo_usage, stdout); return 0;
		default:
			fprintf(stderr, "scx_fuzz: topo: invalid option '%s' (see scx_fuzz topo --help)\n",
				argv[optind - 1]);
			return 2;
		}
	}
	if (optind < argc || (src.synthetic && src.xml)) {
		fprintf(stderr, "scx_fuzz: topo: give at most one of --synthetic and --xml, and no "
			"other arguments\n");
		return 2;
	}
	if (topo_discover(&t, &src, err, sizeof(err)) || plan_build(&t, &p, err, sizeof(err))) {
		fprintf(stderr, "scx_fuzz: topo: %s\n", err);
		return 2;
	}
	if (json)
		topo_print_json(stdout, &t, &p);
	else
		topo_print(stdout, &t, &p);
	return 0;
}
