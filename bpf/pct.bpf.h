/* SPDX-License-Identifier: GPL-2.0 */
/*
 * --mode pct --depth D: probabilistic concurrency testing at the OS level
 * (docs/design.md, "PCT"). Targets are serialized (serial.bpf.h) and the
 * turn goes to the highest-priority waiter: every target thread draws a
 * random priority when it first queues, and a waking thread that outranks
 * the running one preempts it. D - 1 change points, drawn by the loader
 * over the expected number of steps, each drop the priority of the thread
 * running at that step below every other, at a random moment of that run
 * (its CPU's preemption timer), so the drop lands mid-code. A step is a
 * target thread taking the turn over from another, or a target waking or
 * creating another (there the drop is immediate: events.bpf.h). A thread
 * that runs on alone (its slice renewed, woken with nobody else in between)
 * makes no scheduling choice, and counting those would dilute the points.
 * A waiter starved FUZZ_SERIAL_MAX_WAIT_NS runs anyway (the watchdog).
 */
#ifndef FUZZ_PCT_BPF_H
#define FUZZ_PCT_BPF_H

#include "common.bpf.h"
#include "scx_fuzz.h"
#include "fuzz_rand.h"
#include "topo.bpf.h"
#include "stats.bpf.h"
#include "task.bpf.h"
#include "trace.bpf.h"
#include "fuzz.bpf.h"

/* Set by the loader before each run (bss): the change points, in steps, sorted. */
__u64 pct_change_at[FUZZ_MAX_DEPTH];
__u32 pct_nr_changes;
__u64 pct_steps;		/* steps so far in this run */
__u32 pct_next;			/* the next change point's index */
__u32 pct_last_pid;		/* the thread that took the last step */

/* The running turn holder's priority and CPU (serialized: one at a time). */
__u64 pct_owner_prio;
__s32 pct_owner_cpu = -1;

/* A queued target that outranks the running one preempts it. */
static void pct_outranks(const struct task_ctx *tc)
{
	s32 cpu = pct_owner_cpu;

	if (cpu >= 0 && tc->pct_prio > pct_owner_prio)
		kick_cpu(cpu, SCX_KICK_PREEMPT);
}

/* ops.running of the turn holder: a step if it takes over from another; a change point may fall in it. */
static void pct_step(struct task_struct *p, struct task_ctx *tc)
{
	u32 next = pct_next;
	u64 step;

	pct_owner_prio = tc->pct_prio;
	pct_owner_cpu = bpf_get_smp_processor_id();
	if (pct_last_pid == p->pid)
		return;
	pct_last_pid = p->pid;
	step = __sync_add_and_fetch(&pct_steps, 1);
	stat_inc(FUZZ_STAT_PCT_STEPS);
	if (next < pct_nr_changes && next < FUZZ_MAX_DEPTH && step >= pct_change_at[next]) {
		pct_next = next + 1;
		tc->pct_drop_to = next + 1;	/* the i-th change point's priority is i */
	}
}

/*
 * A wake-up or creation by a running target (events.bpf.h) is a step too: a
 * change point reached here drops its priority at once. True if it did.
 */
static bool pct_sync_step(struct task_struct *p, struct task_ctx *tc)
{
	u32 next = pct_next;
	u64 step = __sync_add_and_fetch(&pct_steps, 1);

	stat_inc(FUZZ_STAT_PCT_STEPS);
	if (next >= pct_nr_changes || next >= FUZZ_MAX_DEPTH || step < pct_change_at[next])
		return false;
	pct_next = next + 1;
	tc->pct_prio = next + 1;	/* the i-th change point's priority is i */
	tc->pct_drop_to = 0;
	if (pct_owner_cpu == bpf_get_smp_processor_id())
		pct_owner_prio = tc->pct_prio;
	stat_inc(FUZZ_STAT_PCT_CHANGES);
	trace_event(p, FUZZ_EV_PCT_CHANGE, tc->pct_prio);
	return true;
}

/* ops.stopping of a target: a change point in this run takes effect. */
static void pct_stopped(struct task_struct *p, struct task_ctx *tc)
{
	if (pct_owner_cpu == bpf_get_smp_processor_id())
		pct_owner_cpu = -1;
	if (!tc->pct_drop_to)
		return;
	tc->pct_prio = tc->pct_drop_to;
	tc->pct_drop_to = 0;
	stat_inc(FUZZ_STAT_PCT_CHANGES);
	trace_event(p, FUZZ_EV_PCT_CHANGE, tc->pct_prio);
}

#endif /* FUZZ_PCT_BPF_H */
