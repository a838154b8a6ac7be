/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Preemption at the events where real race windows open: a target thread
 * that has just woken another target thread (a signal, an unlock, a write
 * to a pipe) or just created one is, by a per-event draw, preempted right
 * there -- the kick lands when it returns to user space -- and held back, so
 * the thread it woke or created runs first. That is the interleaving a
 * creator/new-thread or signaller/woken-thread order violation needs, and
 * it is decided per event, not per unit of time, so it reaches programs
 * that live shorter than a tick and works on any clock.
 *
 * ops.select_cpu runs in the waker's (the creator's) context, so `current`
 * is the thread to preempt. A wake-up from an interrupt taken while a
 * sibling of the woken thread ran is counted as that sibling's: a spurious
 * but harmless perturbation.
 *
 * --mode pct counts these events as steps too: a change point reached here
 * drops the waker's priority at once, so the woken thread may take over
 * (PCT's change points fall on the synchronisation operations).
 */
#ifndef FUZZ_EVENTS_BPF_H
#define FUZZ_EVENTS_BPF_H

#include "common.bpf.h"
#include "scx_fuzz.h"
#include "fuzz_rand.h"
#include "topo.bpf.h"
#include "stats.bpf.h"
#include "task.bpf.h"
#include "target.bpf.h"
#include "trace.bpf.h"
#include "fuzz.bpf.h"
#include "pct.bpf.h"

/* ops.select_cpu of target `p`: its waker or creator, if a target, may be preempted here. */
static void sync_event(struct task_struct *p, u64 wake_flags)
{
	struct task_struct *cur = bpf_get_current_task_btf();
	bool created = wake_flags & SCX_WAKE_FORK;
	struct task_ctx *ctc;
	u64 n;

	if (cur == p || (cur->flags & (PF_EXITING | PF_KTHREAD)) || !(ctc = task_ctx(cur)) || !ctc->target)
		return;
	n = ctc->sync_events++;
	if (knobs.mode == FUZZ_MODE_PCT) {
		if (pct_sync_step(cur, ctc))
			kick_cpu(bpf_get_smp_processor_id(), SCX_KICK_PREEMPT);
		return;
	}
	if (ctc->kicked ||
	    !fuzz_event_preempts(run_seed, ctc->key, n, created ? knobs.start_ppm : knobs.event_ppm))
		return;
	ctc->kicked = created ? FUZZ_EV_PREEMPT_CREATE : FUZZ_EV_PREEMPT_WAKE;
	kick_cpu(bpf_get_smp_processor_id(), SCX_KICK_PREEMPT);
	stat_inc(created ? FUZZ_STAT_PREEMPT_CREATE : FUZZ_STAT_PREEMPT_WAKE);
	trace_event(cur, ctc->kicked, p->pid);
}

/* ops.enqueue of a target: true once if the last event it made asked to preempt it. */
static __always_inline bool sync_kick_consume(struct task_ctx *tc, u64 enq_flags)
{
	bool kicked = tc->kicked && !(enq_flags & SCX_ENQ_WAKEUP);

	tc->kicked = 0;
	return kicked;
}

/* ops.stopping of a target that blocked: it left the CPU by itself, the kick is moot. */
static __always_inline void sync_kick_drop(struct task_ctx *tc, bool runnable)
{
	if (!runnable)
		tc->kicked = 0;
}

#endif /* FUZZ_EVENTS_BPF_H */
