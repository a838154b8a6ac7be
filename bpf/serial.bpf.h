/* SPDX-License-Identifier: GPL-2.0 */
/*
 * --serialize: at most one target thread runs at any moment. Runnable
 * targets wait in one queue, ordered by a random key drawn within a short
 * spread (FUZZ_SERIAL_SPREAD_NS) of their wake-up and kept while they are
 * preempted, so a thread that got ahead stays ahead until it sleeps; a
 * waiter starved FUZZ_SERIAL_MAX_WAIT_NS runs next (the watchdog).
 * The turn is a token, serial_turn: a dispatching CPU claims it with a
 * compare-and-swap and moves one waiter to itself; the owner gives it back
 * when it stops running (or is queued again). Non-targets keep every CPU,
 * and nothing polls: the releasing CPU wakes an idle CPU when others wait.
 * A claim whose task never ran (it left the queue on the way) lapses after
 * FUZZ_SERIAL_LEASE_NS.
 */
#ifndef FUZZ_SERIAL_BPF_H
#define FUZZ_SERIAL_BPF_H

#include "common.bpf.h"
#include "scx_fuzz.h"
#include "fuzz_rand.h"
#include "topo.bpf.h"
#include "stats.bpf.h"
#include "task.bpf.h"
#include "target.bpf.h"
#include "trace.bpf.h"
#include "fuzz.bpf.h"
#include "hotplug.bpf.h"
#include "pct.bpf.h"

/*
 * The turn, one word so every change is a single compare-and-swap: the
 * holder's pid (bits 0-31; 0: free), whether it got its CPU (bit 32), and
 * when it was claimed or started (bits 33-63, in units of 2^20 ns).
 */
__u64 serial_turn;

#define TURN_RUNNING FUZZ_EV_HOLDER_RUNNING	/* the same bit, so a trace value is the turn's low bits */
#define TURN_TIME_SHIFT 33

static __always_inline u32 turn_pid(u64 turn)
{
	return (u32)turn;
}

static __always_inline u64 make_turn(u32 pid, u64 now, bool running)
{
	return ((now >> 20) << TURN_TIME_SHIFT) | (running ? TURN_RUNNING : 0) | pid;
}

/* Give the turn back if `pid` holds it. */
static void serial_release(u32 pid)
{
	u64 turn = serial_turn;

	if (turn_pid(turn) == pid)
		__sync_val_compare_and_swap(&serial_turn, turn, 0);
}

/* Queue a runnable target for its turn, at a random place among the waiters. */
static __always_inline void serial_enqueue(struct task_struct *p, struct task_ctx *tc, u64 slice, u64 enq_flags,
			   s32 idle_cpu, bool woke)
{
	u64 now = bpf_ktime_get_ns();

	/* queued again while holding the turn (an affinity change, a kernel move): give it back */
	serial_release(p->pid);
	if (!tc->restore_vtime) {	/* the key is not its fair vtime: that comes back when it runs */
		tc->fair_vtime = p->scx.dsq_vtime;
		tc->restore_vtime = 1;
	}
	tc->queued_ns = now;
	dsq_insert_vtime(p, FUZZ_DSQ_SERIAL, slice, serial_key(p, tc, now, woke), enq_flags);
	if (knobs.mode == FUZZ_MODE_PCT)
		pct_outranks(tc);
	if (idle_cpu >= 0)	/* the idle CPU ops.select_cpu claimed: it takes the turn, or sleeps again */
		kick_cpu(idle_cpu, SCX_KICK_IDLE);
	else if (!serial_turn)
		kick_idle_anywhere(llc_node(cpu_llc(scx_bpf_task_cpu(p))));
}

/*
 * A turn claimed but not used for FUZZ_SERIAL_LEASE_NS: if its task still
 * waits in a CPU's local queue (that CPU has not scheduled: an emulated CPU
 * starved by its host, a kernel that left it idle), that CPU is kicked and
 * the claim stands, so two targets never run at once; if the task left (it
 * exited, or went to another scheduling class), the turn lapses. Ages are
 * modulo the 31-bit clock; a claim stamped after `now` is young.
 */
static void serial_expire(u64 now)
{
	u64 turn = serial_turn, mask = (1ULL << 31) - 1, age;
	struct task_struct *p;

	if (!turn || (turn & TURN_RUNNING))
		return;
	age = ((now >> 20) - (turn >> TURN_TIME_SHIFT)) & mask;
	if (age >= (1ULL << 30) || (age << 20) <= FUZZ_SERIAL_LEASE_NS)
		return;
	p = bpf_task_from_pid(turn_pid(turn));
	if (p && (p->scx.flags & SCX_TASK_QUEUED)) {
		kick_cpu(scx_bpf_task_cpu(p), 0);
		stat_inc(FUZZ_STAT_TURN_KICKS);
	} else {
		__sync_val_compare_and_swap(&serial_turn, turn, 0);
	}
	if (p)
		bpf_task_release(p);
}

#define SERIAL_STARVED_SCAN 256	/* waiters looked at, in line order: a target's threads, mostly */

/*
 * The pid of the waiter this CPU may run that has waited longest, if that is
 * too long; or 0. Longest first, not first in line: the threads that got ahead
 * keep the oldest places, and when turns are slow (7 ms each in a busy emulator)
 * they alone starved again every 100 ms, and the rest waited into the watchdog.
 */
static u32 serial_starved(s32 cpu, u64 now)
{
	struct task_struct *p;
	struct task_ctx *tc;
	u64 oldest = now - FUZZ_SERIAL_MAX_WAIT_NS;
	u32 seen = 0, pid = 0;

	bpf_for_each(scx_dsq, p, FUZZ_DSQ_SERIAL, 0) {
		if (++seen > SERIAL_STARVED_SCAN)
			break;
		tc = task_ctx(p);
		if (tc && time_before(tc->queued_ns, oldest) && bpf_cpumask_test_cpu(cpu, p->cpus_ptr)) {
			oldest = tc->queued_ns;
			pid = p->pid;
		}
	}
	return pid;
}

/* ops.dispatch: if the turn is free, claim it and run the first waiter this CPU may run. */
static bool serial_take(s32 cpu)
{
	u64 now = bpf_ktime_get_ns();
	struct task_struct *p;
	struct task_ctx *tc;
	bool taken = false;
	u32 starved;

	if (scx_bpf_dsq_nr_queued(FUZZ_DSQ_SERIAL) <= 0)
		return false;
	serial_expire(now);
	if (serial_turn)
		return false;
	starved = serial_starved(cpu, now);
	bpf_for_each(scx_dsq, p, FUZZ_DSQ_SERIAL, 0) {
		if (!bpf_cpumask_test_cpu(cpu, p->cpus_ptr) || (starved && p->pid != starved))
			continue;
		if (__sync_val_compare_and_swap(&serial_turn, 0, make_turn(p->pid, now, false)) != 0)
			break;	/* another CPU claimed it first */
		if (!dsq_move(DSQ_ITER, p, SCX_DSQ_LOCAL, 0)) {
			serial_release(p->pid);	/* it left the queue meanwhile */
			continue;
		}
		tc = task_ctx(p);
		stat_inc(FUZZ_STAT_HANDOVERS);
		trace_event(p, FUZZ_EV_HANDOVER, tc && now > tc->queued_ns ? now - tc->queued_ns : 0);
		taken = true;
		break;
	}
	return taken;
}

/* In a migration-disabled kernel section (the BPF program itself counts one when p is current). */
static __always_inline bool in_pinned_section(struct task_struct *p)
{
	return p->migration_disabled > (p == bpf_get_current_task_btf() ? 1 : 0);
}

/*
 * ops.running of a target: it holds the turn (or takes a free one), else
 * something bypassed the queue. The kernel does, for a task preempted while
 * exiting or inside a migration-disabled section: it puts it back on its CPU
 * without ops.enqueue. An exiting thread's user code is over: it runs on,
 * uncounted. One in a section gets a 1 ns slice: it stops at its next tick
 * (and, out of the section, queues for the turn), so it runs out of turn for
 * at most the rest of the section and one tick (`unasked_runs`).
 */
static void serial_running(struct task_struct *p, struct task_ctx *tc)
{
	u64 turn = serial_turn, now = bpf_ktime_get_ns();
	bool unasked;

	if ((turn_pid(turn) == p->pid || !turn) &&
	    __sync_val_compare_and_swap(&serial_turn, turn, make_turn(p->pid, now, true)) == turn) {
		if (knobs.mode == FUZZ_MODE_PCT)
			pct_step(p, tc);
		return;
	}
	if (p->flags & PF_EXITING)
		return;
	unasked = in_pinned_section(p);
	trace_event(p, FUZZ_EV_UNSERIALIZED, (unasked ? FUZZ_EV_UNASKED : 0) | (turn & TURN_RUNNING) |
		    turn_pid(turn));
	if (!unasked) {
		stat_inc(FUZZ_STAT_UNSERIALIZED);
		return;
	}
	p->scx.slice = 1;
	stat_inc(FUZZ_STAT_UNASKED_RUNS);
}

/*
 * ops.stopping of a target. One still runnable with slice left goes back to
 * the head of its CPU's local queue without ops.enqueue (a higher class took
 * the CPU): it keeps the turn. Otherwise the turn passes on.
 */
static void serial_stopping(struct task_struct *p, bool runnable)
{
	if (turn_pid(serial_turn) != p->pid || (runnable && p->scx.slice))
		return;
	serial_release(p->pid);
	if (scx_bpf_dsq_nr_queued(FUZZ_DSQ_SERIAL) > 0)
		kick_idle_anywhere(llc_node(cpu_llc(bpf_get_smp_processor_id())));
}

static s32 serial_init(void)
{
	s32 err;

	if (!knobs.serialize)
		return 0;
	err = scx_bpf_create_dsq(FUZZ_DSQ_SERIAL, -1);
	if (err)
		fuzz_error("cannot create the serialized targets' DSQ: %d", err);
	return err;
}

#endif /* FUZZ_SERIAL_BPF_H */
