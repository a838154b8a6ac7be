/* SPDX-License-Identifier: GPL-2.0 */
/* `scx_fuzz topo`: show the discovered topology and the plan made from it. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>

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

static struct json_object *int_list(const unsigned short *v, int n)
{
	struct json_object *a = json_object_new_array();

	for (int i = 0; i < n; i++)
		json_object_array_add(a, json_object_new_int(v[i]));
	return a;
}

static struct json_object *node_json(const struct topo *t, const struct fuzz_plan *p, int i)
{
	struct json_object *n = json_object_new_object(), *dist = json_object_new_array();
	struct json_object *far = json_object_new_array();

	json_object_object_add(n, "id", json_object_new_int(p->node_os_id[i]));
	json_object_object_add(n, "llcs", int_list(&p->node_llcs[p->node_llc_start[i]],
						   p->node_llc_start[i + 1] - p->node_llc_start[i]));
	json_object_object_add(n, "cpus", int_list(&p->node_cpus[p->node_cpu_start[i]],
						   p->node_cpu_start[i + 1] - p->node_cpu_start[i]));
	for (int j = 0; j < t->nr_nodes; j++)
		json_object_array_add(dist, json_object_new_int(t->distance[i][j]));
	json_object_object_add(n, "distances", dist);
	for (int j = 0; j < p->node_nr_far[i]; j++)
		json_object_array_add(far, json_object_new_int(p->node_os_id[p->node_far[i][j]]));
	json_object_object_add(n, "far_nodes", far);
	return n;
}

/* The topology and plan as JSON, written by json-c. */
void topo_print_json(FILE *out, const struct topo *t, const struct fuzz_plan *p)
{
	struct json_object *top = json_object_new_object(), *nodes = json_object_new_array();
	struct json_object *llcs = json_object_new_array();

	json_object_object_add(top, "cpus", json_object_new_int(t->nr_cpus));
	json_object_object_add(top, "cores", json_object_new_int(t->nr_cores));
	json_object_object_add(top, "llcs", json_object_new_int(t->nr_llcs));
	json_object_object_add(top, "llc_kind", json_object_new_string(llc_kind(t)));
	json_object_object_add(top, "nodes", json_object_new_int(t->nr_nodes));
	json_object_object_add(top, "packages", json_object_new_int(t->nr_pkgs));
	json_object_object_add(top, "firmware_distances", json_object_new_boolean(t->firmware_distances));
	for (int i = 0; i < t->nr_nodes; i++)
		json_object_array_add(nodes, node_json(t, p, i));
	json_object_object_add(top, "node_list", nodes);
	for (int i = 0; i < t->nr_llcs; i++) {
		struct json_object *l = json_object_new_object();

		json_object_object_add(l, "id", json_object_new_int(i));
		json_object_object_add(l, "node", json_object_new_int(p->node_os_id[p->llc_node[i]]));
		json_object_object_add(l, "cpus", int_list(&p->llc_cpus[p->llc_cpu_start[i]],
							   p->llc_cpu_start[i + 1] - p->llc_cpu_start[i]));
		json_object_object_add(l, "steal", int_list(p->llc_steal[i], p->llc_nr_steal[i]));
		json_object_array_add(llcs, l);
	}
	json_object_object_add(top, "llc_list", llcs);
	fprintf(out, "%s\n", json_object_to_json_string_ext(top, JSON_C_TO_STRING_PLAIN));
	json_object_put(top);
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
