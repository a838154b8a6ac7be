/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CPU hotplug. Implementing cpu_online/cpu_offline keeps the kernel from
 * ejecting the scheduler; what they do keeps work from being stranded on CPUs
 * that are going away (docs/testing.md tells how each case was found).
 * The state here is machine-wide but written only by the hotplug ops.
 */
#ifndef FUZZ_HOTPLUG_BPF_H
#define FUZZ_HOTPLUG_BPF_H

#include "common.bpf.h"
#include "scx_fuzz.h"
#include "topo.bpf.h"
#include "stats.bpf.h"

/*
 * A CPU going offline stops dispatching, and the tasks of its runqueue still
 * queued here are pulled by other CPUs. Hotplug then waits for that runqueue
 * to be empty but (seen on 6.16) only notices when the dying CPU itself
 * reschedules, which an idle CPU never does. So while a CPU is dying, every
 * tick elsewhere kicks it, until it has left the online mask. Written only by
 * hotplug; read on ticks.
 */
__s32 dying_cpu = -1;

static void kick_dying(void)
{
	const struct cpumask *online;
	s32 cpu = dying_cpu;

	if (cpu < 0 || cpu == bpf_get_smp_processor_id())
		return;
	online = scx_bpf_get_online_cpumask();
	if (bpf_cpumask_test_cpu(cpu, online))
		kick_cpu(cpu, 0);
	else
		dying_cpu = -1;
	scx_bpf_put_cpumask(online);
}

/* From a tick: do the kicks a CPU going offline left (kick_idle_in), for every LLC with work. */
static void kick_deferred_work(void)
{
	int l;

	if (!kick_deferred || this_cpu_leaving())
		return;
	kick_deferred = 0;
	bpf_for(l, 0, plan.nr_llcs)
		if (scx_bpf_dsq_nr_queued(llc_dsq_id(l)) > 0)
			kick_idle_in(llc_cpumask(l));
}

/*
 * LLCs whose CPUs are all offline may still hold queued tasks, which no CPU
 * of theirs will ever dispatch: while there are any, every dispatching CPU
 * first checks them (a scan of llc_online[], paid only while a whole LLC is
 * offline). Nothing new is queued there once its last CPU is offline, since
 * tasks are queued on the LLC of an online CPU. Written only by hotplug ops.
 */
__u32 llc_online[FUZZ_MAX_LLCS];	/* online CPUs per LLC */
__u32 nr_orphan_llcs;

/* An idle CPU of `node`, else of any node, is woken. */
static void kick_idle_anywhere(u32 node)
{
	int n;

	if (kick_idle_in(node_cpumask(node)))
		return;
	bpf_for(n, 0, plan.nr_nodes)
		if (kick_idle_in(node_cpumask(n)))
			return;
}

/* After topo_init: each LLC's online CPUs; one with none is an orphan from the start. */
static void hotplug_init(void)
{
	u32 llc, up;
	int l, i;

	bpf_for(l, 0, plan.nr_llcs) {
		llc = bounded(l, FUZZ_MAX_LLCS);
		up = 0;
		bpf_for(i, plan.llc_cpu_start[llc], plan.llc_cpu_start[bounded(llc + 1, 2 * FUZZ_MAX_LLCS)])
			up += cpu_up[bounded(plan.llc_cpus[bounded(i, FUZZ_MAX_CPUS)], FUZZ_MAX_CPUS)];
		llc_online[llc] = up;
		if (!up)
			nr_orphan_llcs++;
	}
}

void FUZZ_OPS(fuzz_cpu_online, s32 cpu)
{
	u32 llc = bounded(cpu_llc(cpu), FUZZ_MAX_LLCS);

	if (!llc_online[llc]++ && nr_orphan_llcs)
		nr_orphan_llcs--;
	topo_set_online(cpu, true);
	stat_inc(FUZZ_STAT_HOTPLUG);
	if (dying_cpu == cpu)
		dying_cpu = -1;
}

void FUZZ_OPS(fuzz_cpu_offline, s32 cpu)
{
	u32 llc = bounded(cpu_llc(cpu), FUZZ_MAX_LLCS);

	if (llc_online[llc] && !--llc_online[llc]) {
		nr_orphan_llcs++;
		/* Busy CPUs drain it at their next dispatch; wake one in case all sleep. */
		if (scx_bpf_dsq_nr_queued(llc_dsq_id(llc)) > 0)
			kick_idle_anywhere(llc_node(llc));
	}
	topo_set_online(cpu, false);
	stat_inc(FUZZ_STAT_HOTPLUG);
	dying_cpu = cpu;	/* hotplug is serialised: one at a time */
}

#endif /* FUZZ_HOTPLUG_BPF_H */
