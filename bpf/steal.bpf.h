/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Work stealing between LLCs for ops.dispatch: batches from the nearest busy
 * LLC in the plan's steal order, and draining LLCs that lost all their CPUs.
 */
#ifndef FUZZ_STEAL_BPF_H
#define FUZZ_STEAL_BPF_H

#include "common.bpf.h"
#include "scx_fuzz.h"
#include "topo.bpf.h"
#include "stats.bpf.h"
#include "hotplug.bpf.h"
#include "fuzz.bpf.h"

const volatile __u32 steal_batch = FUZZ_DEFAULT_BATCH;	/* tasks moved per steal */

/*
 * Move up to steal_batch tasks from LLC `victim`: the first to this CPU, the
 * rest to this CPU's LLC queue (rebased to its clock), amortising the remote
 * queue's lock and cache misses over several tasks. Returns tasks moved.
 */
static u32 steal_from_here(u32 victim, s32 cpu, u32 own_llc)
{
	struct llc_ctx *lc = llc_ctx(own_llc);
	struct task_struct *p;
	u32 moved = 0;

	if (!lc || scx_bpf_dsq_nr_queued(llc_dsq_id(victim)) <= 0)
		return 0;
	bpf_for_each(scx_dsq, p, llc_dsq_id(victim), 0) {
		if (!bpf_cpumask_test_cpu(cpu, p->cpus_ptr))
			continue;
		if (!moved) {
			if (dsq_move(DSQ_ITER, p, SCX_DSQ_LOCAL, 0))
				moved++;
			continue;
		}
		if (is_restricted(p))
			continue;
		if (dsq_move_vtime(DSQ_ITER, p, llc_dsq_id(own_llc), lc->vtime_now, 0))
			moved++;
		if (moved >= steal_batch)
			break;
	}
	return moved;
}

/*
 * Tasks of an LLC with no online CPU that may not run on `cpu` (a node's
 * kthreads, pinned tasks) go to the local queue of the CPU whose runqueue
 * holds them: a dying CPU still runs its local queue, and the kernel then
 * moves them on, breaking their affinity. Nothing else would: that CPU no
 * longer dispatches, and hotplug waits for its runqueue to empty (seen on
 * 6.16: kcompactd1 stranded 12 s). Returns tasks moved.
 */
static u32 send_home_pinned_here(u32 victim, s32 cpu)
{
	struct task_struct *p;
	u32 moved = 0;
	s32 home;

	bpf_for_each(scx_dsq, p, llc_dsq_id(victim), 0) {
		if (bpf_cpumask_test_cpu(cpu, p->cpus_ptr))
			continue;
		home = scx_bpf_task_cpu(p);
		if (dsq_move(DSQ_ITER, p, SCX_DSQ_LOCAL_ON | home, 0)) {
			kick_cpu(home, 0);
			moved++;
		}
		if (moved >= steal_batch)
			break;
	}
	return moved;
}

/* Before 7.x, global functions (split_for_verifier, common.bpf.h). */
__noinline u32 steal_from_global(u32 victim, s32 cpu, u32 own_llc)
{
	return steal_from_here(victim, cpu, own_llc);
}

__noinline u32 send_home_pinned_global(u32 victim, s32 cpu)
{
	return send_home_pinned_here(victim, cpu);
}

static __always_inline u32 steal_from(u32 victim, s32 cpu, u32 own_llc)
{
	if (split_for_verifier())
		return steal_from_global(victim, cpu, own_llc);
	return steal_from_here(victim, cpu, own_llc);
}

static __always_inline u32 send_home_pinned(u32 victim, s32 cpu)
{
	if (split_for_verifier())
		return send_home_pinned_global(victim, cpu);
	return send_home_pinned_here(victim, cpu);
}

/* While some LLC has no online CPU (hotplug.bpf.h), drain it before anything else. */
static bool steal_from_orphans(s32 cpu, u32 own_llc)
{
	u32 moved;
	int l;

	bpf_for(l, 0, plan.nr_llcs) {
		u32 idx = bounded(l, FUZZ_MAX_LLCS);

		if (llc_online[idx])
			continue;
		moved = release_due(idx, cpu, true) + steal_from(idx, cpu, own_llc) +
			send_home_pinned(idx, cpu);
		if (!moved)
			continue;
		stat_inc(FUZZ_STAT_STEAL_REMOTE);
		stat_add(FUZZ_STAT_STOLEN, moved);
		return true;
	}
	return false;
}

#endif /* FUZZ_STEAL_BPF_H */
