/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The machine as the BPF side sees it: the plan from topo/plan.c (read-only
 * data) plus per-LLC and per-node state built from it in ops.init. Each LLC's
 * context sits on its own cache line: only that LLC's CPUs write it.
 */
#ifndef FUZZ_TOPO_BPF_H
#define FUZZ_TOPO_BPF_H

#include "common.bpf.h"
#include "scx_fuzz.h"
#include "stats.bpf.h"

const volatile struct fuzz_plan plan;	/* the machine's DSQ plan (topo/plan.c) */
const volatile __u64 slice_ns = FUZZ_DEFAULT_SLICE_US * 1000ULL;	/* the base slice */

struct llc_ctx {
	u64 vtime_now;				/* this LLC's virtual clock */
	struct bpf_cpumask __kptr *cpus;	/* its online CPUs */
	u64 timer_due_ns;			/* when release_timer fires; 0: not armed */
	u64 served_ns;				/* when one of its CPUs last dispatched */
	struct bpf_timer release_timer;		/* wakes a CPU when a held task is due */
} __attribute__((aligned(64)));

struct node_ctx {
	struct bpf_cpumask __kptr *cpus;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, u32);
	__type(value, struct llc_ctx);
	__uint(max_entries, FUZZ_MAX_LLCS);
} llc_ctxs SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, u32);
	__type(value, struct node_ctx);
	__uint(max_entries, FUZZ_MAX_NODES);
} node_ctxs SEC(".maps");

#define time_before(a, b) ((s64)((a) - (b)) < 0)

/*
 * Plan lookups mask their index (the limits are powers of two) so the verifier
 * sees the bound; the empty asm stops clang from dropping a mask it can prove
 * redundant.
 */
static __always_inline u64 bounded(u64 idx, u64 pow2)
{
	asm volatile("" : "+r"(idx));
	return idx & (pow2 - 1);
}

static __always_inline u32 cpu_llc(s32 cpu)
{
	if ((u32)cpu >= FUZZ_MAX_CPUS)
		return FUZZ_NO_LLC;
	return plan.cpu_llc[bounded((u32)cpu, FUZZ_MAX_CPUS)];
}

static __always_inline u32 llc_node(u32 llc)
{
	return plan.llc_node[bounded(llc, FUZZ_MAX_LLCS)];
}

static __always_inline u32 llc_nr_cpus(u32 llc)
{
	llc = bounded(llc, FUZZ_MAX_LLCS);
	return plan.llc_cpu_start[bounded(llc + 1, 2 * FUZZ_MAX_LLCS)] - plan.llc_cpu_start[llc];
}

/* Its affinity leaves out some CPUs of the plan. */
static __always_inline bool is_restricted(const struct task_struct *p)
{
	return p->nr_cpus_allowed < plan.nr_cpus;
}

static __always_inline struct llc_ctx *llc_ctx(u32 llc)
{
	if (llc >= FUZZ_MAX_LLCS)
		return NULL;
	return bpf_map_lookup_elem(&llc_ctxs, &llc);
}

static __always_inline const struct cpumask *llc_cpumask(u32 llc)
{
	struct llc_ctx *lc = llc_ctx(llc);

	return lc ? (const struct cpumask *)lc->cpus : NULL;
}

static __always_inline const struct cpumask *node_cpumask(u32 node)
{
	struct node_ctx *nc = bpf_map_lookup_elem(&node_ctxs, &node);

	return nc ? (const struct cpumask *)nc->cpus : NULL;
}

/*
 * A task's place in its LLC's queue: its virtual time, kept within
 * [clock - 1 slice, clock + FUZZ_MAX_LEAD slices]. The floor caps what sleeping
 * earns; the ceiling bounds how long a low-weight task can be passed over, so
 * every runnable task runs within (FUZZ_MAX_LEAD + 1) rounds of the queue.
 */
static u64 clamp_vtime(u64 vtime, const struct llc_ctx *lc)
{
	if (time_before(vtime, lc->vtime_now - slice_ns))
		return lc->vtime_now - slice_ns;
	if (time_before(lc->vtime_now + FUZZ_MAX_LEAD * slice_ns, vtime))
		return lc->vtime_now + FUZZ_MAX_LEAD * slice_ns;
	return vtime;
}

/* 1 while a CPU is online: set in topo_init and by the cpu_online/cpu_offline ops. */
__u8 cpu_up[FUZZ_MAX_CPUS];

/*
 * The calling CPU is going offline (its cpu_offline op ran). It queues no
 * timer, kick or work on another CPU's local queue from then on: on 7.3 such
 * work left pending on a CPU that went offline made detaching spin forever
 * (docs/testing.md).
 */
static __always_inline bool this_cpu_leaving(void)
{
	return !cpu_up[bounded(bpf_get_smp_processor_id(), FUZZ_MAX_CPUS)];
}

/*
 * Kick `cpu`, unless the calling CPU is going offline: a kick is an irq_work
 * queued on the caller, and one queued on a dying CPU can stay pending for
 * good, which makes the kernel's disable path spin on it later (seen on 7.3
 * after whole-node hotplug; docs/testing.md).
 */
static __always_inline void kick_cpu(s32 cpu, u64 flags)
{
	if (!this_cpu_leaving())
		scx_bpf_kick_cpu(cpu, flags);
}

/*
 * Set by a CPU going offline that had an idle CPU to wake: it may not kick
 * (kick_cpu), so the next tick of an online CPU does it (kick_deferred_work).
 * Written only while CPUs go offline.
 */
__u8 kick_deferred;

/* Wake an idle CPU among `mask` (it sleeps otherwise); true if one was found. */
static bool kick_idle_in(const struct cpumask *mask)
{
	s32 cpu;

	if (!mask)
		return false;
	/* Picking claims the CPU's idle bit: never claim one that will not be kicked. */
	if (this_cpu_leaving()) {
		kick_deferred = 1;
		return false;
	}
	cpu = scx_bpf_pick_idle_cpu(mask, 0);
	if (cpu < 0)
		return false;
	kick_cpu(cpu, SCX_KICK_IDLE);
	stat_inc(FUZZ_STAT_KICK);
	return true;
}

/*
 * Keep the LLC and node masks to online CPUs, so that wake-ups and kicks never
 * pick a CPU that is going away (a dying CPU must drain, not receive work).
 */
static void mask_set(struct bpf_cpumask *mask, s32 cpu, bool on)
{
	if (!mask)
		return;
	if (on)
		bpf_cpumask_set_cpu(cpu, mask);
	else
		bpf_cpumask_clear_cpu(cpu, mask);
}

static void topo_set_online(s32 cpu, bool online)
{
	u32 llc = cpu_llc(cpu), node = llc_node(llc);
	struct llc_ctx *lc = llc_ctx(llc);
	struct node_ctx *nc = bpf_map_lookup_elem(&node_ctxs, &node);

	if (lc)
		mask_set(lc->cpus, cpu, online);
	if (nc)
		mask_set(nc->cpus, cpu, online);
	cpu_up[bounded(cpu, FUZZ_MAX_CPUS)] = online;
}

/* A cpumask holding the online CPUs among plan list entries [first, last); stored into *slot. */
static s32 store_cpumask(struct bpf_cpumask __kptr **slot, const volatile u16 *list, u32 first, u32 last)
{
	struct bpf_cpumask *mask = bpf_cpumask_create(), *old;
	u32 cpu;
	int i;

	if (!mask)
		return -12;	/* -ENOMEM */
	bpf_for(i, first, last) {
		cpu = bounded(list[bounded(i, FUZZ_MAX_CPUS)], FUZZ_MAX_CPUS);
		if (cpu_up[cpu])
			bpf_cpumask_set_cpu(cpu, mask);
	}
	old = bpf_kptr_xchg(slot, mask);
	if (old)
		bpf_cpumask_release(old);
	return 0;
}

/*
 * The plan's CPUs that are online now. ops.init runs with CPU hotplug held off
 * until the cpu_online/cpu_offline ops are live, so none is missed; the plan
 * also holds CPUs that were offline when it was made (nosmt, hotplug).
 */
static void mark_online_cpus(void)
{
	const struct cpumask *online = scx_bpf_get_online_cpumask();
	u32 cpu;
	int l;

	bpf_for(l, 0, plan.nr_cpus) {
		cpu = bounded(plan.llc_cpus[bounded(l, FUZZ_MAX_CPUS)], FUZZ_MAX_CPUS);
		cpu_up[cpu] = bpf_cpumask_test_cpu(cpu, online);
	}
	scx_bpf_put_cpumask(online);
}

/*
 * One DSQ per LLC on its node, and the LLC and node cpumasks. List bounds are
 * read before the map lookups: an index whose address is taken is spilled to
 * the stack and comes back without the bounds the verifier needs.
 */
static s32 topo_init(void)
{
	u32 idx, node, first, last, key;
	struct node_ctx *nc;
	struct llc_ctx *lc;
	s32 err;
	int l, n;

	mark_online_cpus();
	bpf_for(l, 0, plan.nr_llcs) {
		idx = bounded(l, FUZZ_MAX_LLCS);
		node = bounded(llc_node(idx), FUZZ_MAX_NODES);
		first = plan.llc_cpu_start[idx];
		last = plan.llc_cpu_start[bounded(idx + 1, 2 * FUZZ_MAX_LLCS)];
		err = scx_bpf_create_dsq(llc_dsq_id(idx), plan.node_os_id[node]);
		if (err) {
			fuzz_error("cannot create the DSQ of LLC %d on node %d: %d", idx,
				   plan.node_os_id[node], err);
			return err;
		}
		lc = llc_ctx(idx);
		if (!lc || store_cpumask(&lc->cpus, plan.llc_cpus, first, last))
			return -12;
	}
	bpf_for(n, 0, plan.nr_nodes) {
		idx = bounded(n, FUZZ_MAX_NODES);
		first = plan.node_cpu_start[idx];
		last = plan.node_cpu_start[bounded(idx + 1, 2 * FUZZ_MAX_NODES)];
		key = idx;
		nc = bpf_map_lookup_elem(&node_ctxs, &key);
		if (!nc || store_cpumask(&nc->cpus, plan.node_cpus, first, last))
			return -12;
	}
	return 0;
}

#endif /* FUZZ_TOPO_BPF_H */
