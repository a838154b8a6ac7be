/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Topology discovery with hwloc: CPUs with their kernel ids, cores, the
 * last-level cache each CPU shares, NUMA nodes and their distances. CPUs
 * offline now are planned too, as they may come online while we run. The
 * running system by default; a synthetic description or XML file for tests.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <hwloc.h>

#include "topo.h"

/* Per-CPU facts gathered before dense numbering. */
struct raw_cpu {
	int id, node_os;
	unsigned long core_key, llc_key, pkg_key;
	int llc_level;
};

static int cmp_cpu(const void *a, const void *b)
{
	return ((const struct raw_cpu *)a)->id - ((const struct raw_cpu *)b)->id;
}

static int cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

/* The topmost data/unified cache above a PU, else its core, else the PU itself. */
static hwloc_obj_t last_level_cache(hwloc_topology_t h, hwloc_obj_t pu, int *level)
{
	hwloc_obj_t o, llc = NULL;

	for (o = pu->parent; o; o = o->parent)
		if (hwloc_obj_type_is_dcache(o->type))
			llc = o;
	*level = llc ? (int)llc->attr->cache.depth : 0;
	if (!llc)
		llc = hwloc_get_ancestor_obj_by_type(h, HWLOC_OBJ_CORE, pu);
	return llc ? llc : pu;
}

/* The lowest-numbered NUMA node whose CPUs include this PU, else one of its package. */
static int node_of(hwloc_topology_t h, hwloc_obj_t pu)
{
	hwloc_obj_t n, pkg = hwloc_get_ancestor_obj_by_type(h, HWLOC_OBJ_PACKAGE, pu);
	int best = -1;

	for (n = NULL; (n = hwloc_get_next_obj_by_type(h, HWLOC_OBJ_NUMANODE, n));)
		if (hwloc_bitmap_isset(n->cpuset, pu->os_index) && (best < 0 || (int)n->os_index < best))
			best = n->os_index;
	if (best >= 0)
		return best;
	for (n = NULL; (n = hwloc_get_next_obj_by_type(h, HWLOC_OBJ_NUMANODE, n));)
		if (pkg && hwloc_bitmap_intersects(n->cpuset, pkg->cpuset) &&
		    (best < 0 || (int)n->os_index < best))
			best = n->os_index;
	return best < 0 ? 0 : best;
}

/* Dense index of key in keys[0..*n), appending it if new. */
static int dense(unsigned long *keys, int *n, unsigned long key)
{
	for (int i = 0; i < *n; i++)
		if (keys[i] == key)
			return i;
	keys[*n] = key;
	return (*n)++;
}

static int gather_cpus(hwloc_topology_t h, struct raw_cpu *raw, char *err, size_t len)
{
	hwloc_obj_t pu = NULL, o;
	int n = 0;

	while ((pu = hwloc_get_next_obj_by_type(h, HWLOC_OBJ_PU, pu))) {
		if (n >= FUZZ_MAX_CPUS || pu->os_index >= FUZZ_MAX_CPUS) {
			snprintf(err, len, "machine exceeds compiled limits: more than %d CPUs or a "
				 "CPU id above %d", FUZZ_MAX_CPUS, FUZZ_MAX_CPUS - 1);
			return -1;
		}
		raw[n].id = pu->os_index;
		raw[n].node_os = node_of(h, pu);
		o = hwloc_get_ancestor_obj_by_type(h, HWLOC_OBJ_CORE, pu);
		raw[n].core_key = (o ? o : pu)->gp_index;
		raw[n].llc_key = last_level_cache(h, pu, &raw[n].llc_level)->gp_index;
		o = hwloc_get_ancestor_obj_by_type(h, HWLOC_OBJ_PACKAGE, pu);
		raw[n].pkg_key = o ? o->gp_index : 0;
		n++;
	}
	if (!n)
		snprintf(err, len, "hwloc found no CPUs");
	return n ? n : -1;
}

/* The node of a CPU hwloc knows only by id (offline: no PU object), 0 if none says. */
static int offline_node_of(hwloc_topology_t h, unsigned id)
{
	hwloc_obj_t n = NULL;
	int best = -1;

	while ((n = hwloc_get_next_obj_by_type(h, HWLOC_OBJ_NUMANODE, n)))
		if (n->complete_cpuset && hwloc_bitmap_isset(n->complete_cpuset, id) &&
		    (best < 0 || (int)n->os_index < best))
			best = n->os_index;
	return best < 0 ? 0 : best;
}

/*
 * CPUs offline now (nosmt, hotplug) that may come online while we run: each
 * joins the LLC and package of the first online CPU of its node (their caches
 * are unknown while offline), or an LLC of its own if its node has none.
 */
static int add_offline_cpus(hwloc_topology_t h, struct raw_cpu *raw, int n, char *err, size_t len)
{
	const unsigned long offline_key = 1UL << 40;	/* above any hwloc gp_index */
	hwloc_const_cpuset_t all = hwloc_topology_get_complete_cpuset(h);
	int online = n, i;
	unsigned id;

	hwloc_bitmap_foreach_begin(id, all) {
		if (hwloc_get_pu_obj_by_os_index(h, id))
			continue;
		if (n >= FUZZ_MAX_CPUS || id >= FUZZ_MAX_CPUS) {
			snprintf(err, len, "machine exceeds compiled limits: more than %d CPUs or a "
				 "CPU id above %d (counting offline CPUs)", FUZZ_MAX_CPUS, FUZZ_MAX_CPUS - 1);
			return -1;
		}
		raw[n].id = id;
		raw[n].node_os = offline_node_of(h, id);
		raw[n].core_key = offline_key + id;
		for (i = 0; i < online && raw[i].node_os != raw[n].node_os; i++)
			;
		raw[n].llc_key = i < online ? raw[i].llc_key : offline_key + FUZZ_MAX_CPUS + raw[n].node_os;
		raw[n].llc_level = i < online ? raw[i].llc_level : 0;
		raw[n].pkg_key = i < online ? raw[i].pkg_key : 0;
		n++;
	} hwloc_bitmap_foreach_end();
	return n;
}

/* Dense numbering in CPU id order; an LLC that spans nodes is split per node. */
static int number_cpus(struct topo *t, struct raw_cpu *raw, int n, char *err, size_t len)
{
	static unsigned long core_keys[FUZZ_MAX_CPUS], llc_keys[FUZZ_MAX_CPUS], pkg_keys[FUZZ_MAX_CPUS];
	int node_ids[FUZZ_MAX_CPUS], nr_node_ids = 0, i, k;

	qsort(raw, n, sizeof(*raw), cmp_cpu);
	for (i = 0; i < n; i++) {
		for (k = 0; k < nr_node_ids && node_ids[k] != raw[i].node_os; k++)
			;
		if (k == nr_node_ids)
			node_ids[nr_node_ids++] = raw[i].node_os;
	}
	if (nr_node_ids > FUZZ_MAX_NODES) {
		snprintf(err, len, "machine exceeds compiled limits: %d NUMA nodes (max %d)",
			 nr_node_ids, FUZZ_MAX_NODES);
		return -1;
	}
	qsort(node_ids, nr_node_ids, sizeof(int), cmp_int);
	memcpy(t->node_os_id, node_ids, nr_node_ids * sizeof(int));
	t->nr_nodes = nr_node_ids;
	t->nr_cpus = n;
	for (i = 0; i < n; i++) {
		struct topo_cpu *c = &t->cpus[i];

		c->id = raw[i].id;
		for (c->node = 0; t->node_os_id[c->node] != raw[i].node_os; c->node++)
			;
		c->core = dense(core_keys, &t->nr_cores, raw[i].core_key);
		c->llc = dense(llc_keys, &t->nr_llcs, raw[i].llc_key * FUZZ_MAX_NODES + c->node);
		c->pkg = dense(pkg_keys, &t->nr_pkgs, raw[i].pkg_key);
		if (raw[i].llc_level > t->llc_level)
			t->llc_level = raw[i].llc_level;
	}
	return 0;
}

static int node_index(const struct topo *t, int os_id)
{
	for (int i = 0; i < t->nr_nodes; i++)
		if (t->node_os_id[i] == os_id)
			return i;
	return -1;
}

/* Firmware (SLIT) latencies when hwloc has them; else 10 local, 12 same package, 20 remote. */
static void gather_distances(hwloc_topology_t h, struct topo *t)
{
	struct hwloc_distances_s *d = NULL;
	unsigned nr = 1, i, j;
	int a, b, pa, pb, seen = 0;

	for (a = 0; a < t->nr_nodes; a++)
		for (b = 0; b < t->nr_nodes; b++)
			t->distance[a][b] = -1;
	if (!hwloc_distances_get_by_type(h, HWLOC_OBJ_NUMANODE, &nr, &d,
					 HWLOC_DISTANCES_KIND_MEANS_LATENCY, 0) && nr) {
		for (i = 0; i < d->nbobjs; i++)
			for (j = 0; j < d->nbobjs; j++) {
				a = node_index(t, d->objs[i]->os_index);
				b = node_index(t, d->objs[j]->os_index);
				if (a >= 0 && b >= 0) {
					t->distance[a][b] = d->values[i * d->nbobjs + j];
					seen++;
				}
			}
		hwloc_distances_release(h, d);
	}
	t->firmware_distances = seen == t->nr_nodes * t->nr_nodes;
	for (a = 0; a < t->nr_nodes; a++)
		for (b = 0; b < t->nr_nodes; b++) {
			if (t->firmware_distances)
				continue;
			for (i = 0, pa = pb = -1; i < (unsigned)t->nr_cpus; i++) {
				if (pa < 0 && t->cpus[i].node == a)
					pa = t->cpus[i].pkg;
				if (pb < 0 && t->cpus[i].node == b)
					pb = t->cpus[i].pkg;
			}
			t->distance[a][b] = a == b ? 10 : pa == pb ? 12 : 20;
		}
}

static int load(hwloc_topology_t h, const struct topo_source *src, char *err, size_t len)
{
	if (src->synthetic && hwloc_topology_set_synthetic(h, src->synthetic)) {
		snprintf(err, len, "invalid synthetic topology description '%s'", src->synthetic);
		return -1;
	}
	if (src->xml) {
		if (access(src->xml, R_OK)) {
			snprintf(err, len, "cannot read topology XML '%s': %s", src->xml, strerror(errno));
			return -1;
		}
		if (hwloc_topology_set_xml(h, src->xml)) {
			snprintf(err, len, "cannot use topology XML '%s': %s", src->xml, strerror(errno));
			return -1;
		}
	}
	hwloc_topology_set_io_types_filter(h, HWLOC_TYPE_FILTER_KEEP_NONE);
	hwloc_topology_set_icache_types_filter(h, HWLOC_TYPE_FILTER_KEEP_NONE);
	if (hwloc_topology_load(h)) {
		snprintf(err, len, "hwloc cannot load the topology%s%s: %s", src->xml ? " from " : "",
			 src->xml ? src->xml : "", strerror(errno));
		return -1;
	}
	return 0;
}

int topo_discover(struct topo *t, const struct topo_source *src, char *err, size_t err_len)
{
	static struct raw_cpu raw[FUZZ_MAX_CPUS];
	hwloc_topology_t h;
	int n, ret = -1;

	memset(t, 0, sizeof(*t));
	/* hwloc's plugins only find I/O devices, which we filter out; a static binary must not dlopen them. */
	setenv("HWLOC_PLUGINS_PATH", "/nonexistent", 0);
	if (hwloc_topology_init(&h)) {
		snprintf(err, err_len, "hwloc cannot initialise: %s", strerror(errno));
		return -1;
	}
	if (!load(h, src, err, err_len) && (n = gather_cpus(h, raw, err, err_len)) > 0 &&
	    (n = add_offline_cpus(h, raw, n, err, err_len)) > 0 && !number_cpus(t, raw, n, err, err_len)) {
		gather_distances(h, t);
		ret = 0;
	}
	hwloc_topology_destroy(h);
	return ret;
}
