/* SPDX-License-Identifier: GPL-2.0 */
/*
 * scx_fuzz: a sched_ext scheduler that schedules a target program badly on
 * purpose so its latent concurrency bugs show up (see docs/design.md).
 *
 * This file is the scalable base every task gets. There is one vtime-ordered
 * queue per last-level cache, created on the LLC's NUMA node, with weighted
 * fairness among the tasks of an LLC. A woken task goes straight to an idle
 * CPU: its previous one, else one in its LLC, its node, anywhere. A CPU runs
 * its own LLC's queue first; when that is empty it steals a batch of tasks
 * from the nearest busy LLC (plan steal order: same node first) and otherwise
 * goes idle. Idle CPUs sleep until work arriving for them kicks them awake:
 * nothing polls, and no state is shared wider than an LLC on the hot paths.
 * --global-queue swaps all this for the seed's one shared queue (a baseline).
 *
 * Target tasks (target.bpf.h) go through fuzz_enqueue_target instead, which
 * applies the perturbations of fuzz.bpf.h: held wake-ups, jitter, random
 * slices and forced moves.
 */
#include "common.bpf.h"
#include "scx_fuzz.h"
#include "topo.bpf.h"
#include "stats.bpf.h"
#include "task.bpf.h"
#include "hotplug.bpf.h"
#include "target.bpf.h"
#include "fuzz.bpf.h"
#include "windows.bpf.h"
#include "preempt.bpf.h"
#include "serial.bpf.h"
#include "events.bpf.h"
#include "points.bpf.h"
#include "images.bpf.h"
#include "steal.bpf.h"
#include "stranded.bpf.h"

char _license[] SEC("license") = "GPL";

/* Tunables, set by the loader between open and load. */
const volatile bool global_queue;
const volatile __u32 test_fault = FUZZ_FAULT_NONE;

/* Why we were detached; the loader polls kind != 0. */
struct fuzz_exit_record exit_record;

/*
 * A synchronous wake-up (the waker is about to sleep, as in a pipe ping-pong):
 * keep the pair on one CPU. The previous CPU if it is idle and shares the
 * waker's LLC, else the waker's own CPU when nothing is queued there yet --
 * nor in its LLC's queue, or chains of such pairs would starve that queue.
 */
static s32 pick_sync_cpu(struct task_struct *p, s32 prev_cpu)
{
	s32 waker = bpf_get_smp_processor_id();
	struct task_struct *cur = bpf_get_current_task_btf();

	if (cpu_llc(waker) == cpu_llc(prev_cpu) && scx_bpf_test_and_clear_cpu_idle(prev_cpu))
		return prev_cpu;
	if (!(cur->flags & PF_EXITING) && bpf_cpumask_test_cpu(waker, p->cpus_ptr) &&
	    scx_bpf_dsq_nr_queued(SCX_DSQ_LOCAL) == 0 &&
	    scx_bpf_dsq_nr_queued(llc_dsq_id(cpu_llc(waker))) == 0)
		return waker;
	return -1;
}

/* Previous CPU if idle, else an idle CPU of its LLC, its node, then anywhere. */
static s32 pick_idle_cpu(struct task_struct *p, s32 prev_cpu, u64 wake_flags)
{
	u32 llc = cpu_llc(prev_cpu);
	const struct cpumask *mask;
	s32 cpu;

	if (llc == FUZZ_NO_LLC)
		return scx_bpf_pick_idle_cpu(p->cpus_ptr, 0);
	if ((wake_flags & SCX_WAKE_SYNC) && (cpu = pick_sync_cpu(p, prev_cpu)) >= 0)
		return cpu;
	mask = llc_cpumask(llc);
	if (mask && bpf_cpumask_test_cpu(prev_cpu, mask) && scx_bpf_test_and_clear_cpu_idle(prev_cpu))
		return prev_cpu;
	if (mask && (cpu = scx_bpf_pick_idle_cpu(mask, 0)) >= 0)
		return cpu;
	mask = node_cpumask(llc_node(llc));
	if (mask && (cpu = scx_bpf_pick_idle_cpu(mask, 0)) >= 0)
		return cpu;
	return scx_bpf_pick_idle_cpu(p->cpus_ptr, 0);
}

s32 FUZZ_OPS(fuzz_select_cpu, struct task_struct *p, s32 prev_cpu, u64 wake_flags)
{
	struct task_ctx *tc = target_ctx_at(p, true);
	bool is_idle = false;
	s32 cpu;

	if (global_queue || is_restricted(p)) {
		/* The kernel's own policy honours any affinity mask. */
		cpu = scx_bpf_select_cpu_dfl(p, prev_cpu, wake_flags, &is_idle);
	} else {
		cpu = pick_idle_cpu(p, prev_cpu, wake_flags);
		is_idle = cpu >= 0;
		if (!is_idle)
			cpu = prev_cpu;
	}
	/* Targets always go on to ops.enqueue, to be fuzzed there; it may use the idle CPU. */
	if (tc) {
		sync_event(p, wake_flags);
		tc->woke_on_idle = is_idle;
		return cpu;
	}
	if (is_idle) {
		stat_inc(FUZZ_STAT_DIRECT);
		dsq_insert(p, SCX_DSQ_LOCAL, slice_ns, 0);
	}
	return cpu;
}

/*
 * Queue on the LLC of the task's CPU and wake an idle CPU to run it. A
 * target's vtime may carry jitter, taken back when it runs (fuzz_start_run).
 */
static void enqueue_llc(struct task_struct *p, struct task_ctx *tc, u64 slice, s64 jitter,
			u64 enq_flags)
{
	u64 vtime;

	s32 cpu = scx_bpf_task_cpu(p);
	u32 llc = cpu_llc(cpu);
	struct llc_ctx *lc = llc_ctx(llc);

	if (!lc) {
		fuzz_error("cpu %d has no LLC in the plan", cpu);
		return;
	}
	vtime = clamp_vtime(p->scx.dsq_vtime, lc);
	if (tc && jitter) {
		tc->fair_vtime = vtime;
		tc->restore_vtime = 1;
		vtime += jitter;	/* may reach jitter/2 below the sleepers' floor */
	}
	dsq_insert_vtime(p, llc_dsq_id(llc), slice, vtime, enq_flags);
	if (kick_idle_in(llc_cpumask(llc)))
		return;
	/* More queued than the LLC has CPUs: wake an idle neighbour to steal a batch. */
	if (scx_bpf_dsq_nr_queued(llc_dsq_id(llc)) > llc_nr_cpus(llc))
		kick_idle_in(node_cpumask(llc_node(llc)));
}

/* Straight to `cpu`'s local queue, waking it if it sleeps. */
static void insert_on_cpu(struct task_struct *p, s32 cpu, u64 slice, u64 enq_flags)
{
	stat_inc(FUZZ_STAT_DIRECT);
	dsq_insert(p, SCX_DSQ_LOCAL_ON | cpu, slice, enq_flags);
	kick_cpu(cpu, SCX_KICK_IDLE);
}

/*
 * A target's turn at the fuzzer: one event, one set of draws. A wake-up (or
 * its first enqueue) may be held back, and a preemption we injected at an
 * event or inside a run burst is; otherwise it may be forced onto a distant
 * CPU; otherwise it takes the idle CPU select_cpu found, or joins its LLC's
 * queue with jitter. Either way it gets a random slice.
 */
static void fuzz_enqueue_fuzzed(struct task_struct *p, struct task_ctx *tc, u64 enq_flags)
{
	bool preempted = preempt_consume(p), kicked = sync_kick_consume(tc, enq_flags);
	u64 event = tc->events++, slice = target_slice(tc, event, slice_ns);
	/*
	 * An injected preemption is fuzzed like a wake-up: it may be held back --
	 * unless targets are serialized, where the waiting order already decides
	 * who runs next (a hold there would mostly stall the thread that got ahead).
	 */
	bool wakeup = (enq_flags & SCX_ENQ_WAKEUP) || !event || (preempted && !knobs.serialize);
	/* preempt-and-hold: a preemption alone changes nothing while the rival sleeps */
	bool injected = (kicked || (preempted && !knobs.preempt_max_ns)) && !knobs.serialize;
	bool on_idle = tc->woke_on_idle;
	s32 here = scx_bpf_task_cpu(p), cpu;
	u32 stat;

	stat_inc(FUZZ_STAT_TARGET_ENQ);
	tc->woke_on_idle = 0;
	if (tc->held)
		fuzz_unhold(p, tc);
	if (knobs.mode == FUZZ_MODE_WINDOWS ? window_hold(p, tc, event, &slice, enq_flags) :
	    injected ? hold_preempted(p, tc, event, slice, enq_flags) :
	    wakeup && knobs.delay_max_ns && hold_target(p, tc, event, slice, enq_flags)) {
		if (on_idle)	/* hand back the idle CPU select_cpu claimed */
			kick_cpu(here, SCX_KICK_IDLE);
		return;
	}
	if (knobs.serialize) {
		serial_enqueue(p, tc, slice, enq_flags, on_idle ? here : -1,
			       (enq_flags & SCX_ENQ_WAKEUP) || !event);
		return;
	}
	cpu = forced_cpu(p, tc, event, here, &stat);
	if (cpu >= 0) {
		insert_on_cpu(p, cpu, slice, enq_flags);
		if (on_idle && cpu != here)
			kick_cpu(here, SCX_KICK_IDLE);
		stat_inc(stat);
		trace_event(p, stat == FUZZ_STAT_MIGRATE_NODE ? FUZZ_EV_MIGRATE_NODE : FUZZ_EV_MIGRATE_LLC, cpu);
	} else if (on_idle) {
		/* An idle CPU has nobody to reorder against: no jitter, just the random slice. */
		insert_on_cpu(p, here, slice, enq_flags);
	} else {
		enqueue_llc(p, tc, slice, target_jitter(tc, event), enq_flags);
	}
}

/* A target's enqueue, unless its process still waits for its points. */
static void fuzz_enqueue_target(struct task_struct *p, struct task_ctx *tc, u64 enq_flags)
{
	/* before any draw: how long it waits for its points must not shift its PRNG stream */
	if (tc->image_wait_until && image_hold(p, tc, enq_flags)) {
		if (tc->woke_on_idle)	/* hand back the idle CPU select_cpu claimed */
			kick_cpu(scx_bpf_task_cpu(p), SCX_KICK_IDLE);
		tc->woke_on_idle = 0;
		return;
	}
	fuzz_enqueue_fuzzed(p, tc, enq_flags);
}

/*
 * A target enqueued by a CPU going offline is not fuzzed: no hold (a timer),
 * no move to another CPU's queue (this_cpu_leaving); serialized, it still
 * waits for its turn.
 */
static void enqueue_unfuzzed(struct task_struct *p, struct task_ctx *tc, u64 enq_flags)
{
	if (tc->held)
		fuzz_unhold(p, tc);
	tc->woke_on_idle = 0;
	if (knobs.serialize)
		serial_enqueue(p, tc, slice_ns, enq_flags, -1, (enq_flags & SCX_ENQ_WAKEUP) || !tc->events);
	else
		enqueue_llc(p, tc, slice_ns, 0, enq_flags);
}

/*
 * Keep the last runnable task of a CPU on it. The CPU is switching to idle
 * meanwhile, and (6.16) nothing reschedules it for a task queued locally then:
 * the kick is the follow-up scheduling event SCX_OPS_ENQ_LAST asks of us.
 * Without it the task sat until the CPU woke for something else (measured:
 * fork+exec+exit 35x slower, the JVM 10x slower, on 6.16.3).
 */
static void run_on_as_last(struct task_struct *p, u64 slice, u64 enq_flags)
{
	dsq_insert(p, SCX_DSQ_LOCAL, slice, enq_flags);
	kick_cpu(scx_bpf_task_cpu(p), 0);
}

void FUZZ_OPS(fuzz_enqueue, struct task_struct *p, u64 enq_flags)
{
	struct task_ctx *tc;
	s32 cpu;

	stat_inc(FUZZ_STAT_ENQUEUE);
	/*
	 * The only runnable task of its CPU used up its slice (SCX_OPS_ENQ_LAST):
	 * it runs on with a fresh slice, a random one for a target, so random
	 * preemption points reach CPU-bound threads that run alone.
	 */
	if (enq_flags & SCX_ENQ_LAST) {
		tc = target_ctx(p);
		/* a serialized target waits for its turn; a preempted one is a fuzzing event */
		if (tc && (knobs.serialize || preempt_fired(p) || tc->kicked || tc->image_wait_until)) {
			fuzz_enqueue_target(p, tc, enq_flags);
			kick_cpu(scx_bpf_task_cpu(p), 0);	/* this CPU looks again (see run_on_as_last) */
			return;
		}
		if (tc && knobs.mode == FUZZ_MODE_WINDOWS) {
			u64 event = tc->events++, slice = target_slice(tc, event, slice_ns);

			/* its running window may be over; if not, it carries on here (the CPU sleeps otherwise) */
			if (!window_hold(p, tc, event, &slice, enq_flags))
				run_on_as_last(p, slice, enq_flags);
			return;
		}
		run_on_as_last(p, tc ? target_slice(tc, tc->events++, slice_ns) : slice_ns, enq_flags);
		return;
	}
	if (global_queue) {
		dsq_insert(p, FUZZ_DSQ_GLOBAL, slice_ns, enq_flags);
		kick_idle_in(p->cpus_ptr);
		return;
	}
	/*
	 * Per-CPU kernel threads (cpuhp, kworkers, ksoftirqd) can run only on
	 * their CPU and often hold up others (CPU hotplug waits for them): they
	 * go straight to it, ahead of the LLC queue.
	 */
	if ((p->flags & PF_KTHREAD) && p->nr_cpus_allowed == 1)
		insert_on_cpu(p, scx_bpf_task_cpu(p), slice_ns, enq_flags);
	else if ((tc = target_ctx(p)) && this_cpu_leaving())
		enqueue_unfuzzed(p, tc, enq_flags);
	else if (tc)
		fuzz_enqueue_target(p, tc, enq_flags);
	/* Other restricted tasks go to an allowed idle CPU if there is one (not from a leaving CPU). */
	else if (is_restricted(p) && !this_cpu_leaving() && (cpu = scx_bpf_pick_idle_cpu(p->cpus_ptr, 0)) >= 0)
		insert_on_cpu(p, cpu, slice_ns, enq_flags);
	else
		enqueue_llc(p, NULL, slice_ns, 0, enq_flags);
}

/*
 * --test-fault strand: the last LLC's CPUs serve only the tasks that cannot
 * run anywhere else (its node's kthreads), so its queue is otherwise stranded.
 */
static bool strand_fault(s32 cpu, u32 llc)
{
	struct task_struct *p;

	if (test_fault != FUZZ_FAULT_STRAND || llc != plan.nr_llcs - 1)
		return false;
	bpf_for_each(scx_dsq, p, llc_dsq_id(llc), 0) {
		if (is_restricted(p) && bpf_cpumask_test_cpu(cpu, p->cpus_ptr)) {
			dsq_move(DSQ_ITER, p, SCX_DSQ_LOCAL, 0);
			break;
		}
	}
	return true;
}

void FUZZ_OPS(fuzz_dispatch, s32 cpu, struct task_struct *prev)
{
	u32 llc = cpu_llc(cpu), node, victim, moved;
	int k;

	if (global_queue) {
		if (dsq_move_to_local(FUZZ_DSQ_GLOBAL))
			stat_inc(FUZZ_STAT_GLOBAL);
		else
			stat_inc(FUZZ_STAT_EMPTY);
		return;
	}
	if (llc == FUZZ_NO_LLC)
		return;
	if (strand_fault(cpu, llc))
		return;
	if (nr_orphan_llcs && steal_from_orphans(cpu, llc))
		return;
	note_served(llc, bpf_ktime_get_ns());
	if ((moved = rescue_stranded(cpu, llc))) {
		stat_add(FUZZ_STAT_RESCUED, moved);
		return;
	}
	if (knobs.image_wait_ns)
		image_release(cpu);
	if (knobs.delay_max_ns || knobs.mode == FUZZ_MODE_WINDOWS)
		release_due(llc, cpu, false);
	if (knobs.serialize && serial_take(cpu))
		return;
	if (dsq_move_to_local(llc_dsq_id(llc))) {
		stat_inc(FUZZ_STAT_LLC);
		/* More waiting: pass the wake-up on, in case the CPU kicked for it took another. */
		if (scx_bpf_dsq_nr_queued(llc_dsq_id(llc)) > 0)
			kick_idle_in(llc_cpumask(llc));
		return;
	}
	llc = bounded(llc, FUZZ_MAX_LLCS);
	node = llc_node(llc);
	bpf_for(k, 0, plan.llc_nr_steal[llc]) {
		victim = plan.llc_steal[llc][bounded(k, FUZZ_MAX_STEAL)];
		moved = steal_from(victim, cpu, llc);
		if (!moved)
			continue;
		stat_inc(llc_node(victim) == node ?
			 FUZZ_STAT_STEAL_NODE : FUZZ_STAT_STEAL_REMOTE);
		stat_add(FUZZ_STAT_STOLEN, moved);
		return;
	}
	/* Nothing close enough: prev keeps running if still runnable, else the CPU sleeps. */
	stat_inc(FUZZ_STAT_EMPTY);
}

void FUZZ_OPS(fuzz_running, struct task_struct *p)
{
	struct llc_ctx *lc = llc_ctx(cpu_llc(scx_bpf_task_cpu(p)));
	struct task_ctx *tc = task_ctx(p);

	if (tc)
		fuzz_start_run(p, tc);
	if (tc && tc->target) {
		image_check_running(p, tc);
		if (knobs.serialize)
			serial_running(p, tc);
		preempt_arm(p, tc, tc->run_start_ns);
	}
	/*
	 * The LLC's clock follows the tasks it runs, by at most a slice per
	 * switch, so one low-weight task far ahead cannot drag it (and every
	 * newly woken task) forward. Only CPUs of this LLC write it.
	 */
	if (lc && time_before(lc->vtime_now, p->scx.dsq_vtime))
		lc->vtime_now = time_before(lc->vtime_now + slice_ns, p->scx.dsq_vtime) ?
				lc->vtime_now + slice_ns : p->scx.dsq_vtime;
}

void FUZZ_OPS(fuzz_stopping, struct task_struct *p, bool runnable)
{
	struct task_ctx *tc = task_ctx(p);
	u64 now = bpf_ktime_get_ns();

	/* a target's run ends: its preemption timer, change point and turn with it */
	if (tc && tc->target) {
		preempt_disarm();
		sync_kick_drop(tc, runnable);
		if (knobs.mode == FUZZ_MODE_PCT)
			pct_stopped(p, tc);
		if (knobs.serialize)
			serial_stopping(p, runnable);
	}
	if (tc)
		note_target_death(p, tc, runnable);
	/*
	 * Charge the time really used, scaled by weight (nice 0 = 100). Not
	 * slice_ns - p->scx.slice: the kernel may have refilled the slice.
	 */
	if (tc && tc->run_start_ns && now > tc->run_start_ns) {
		p->scx.dsq_vtime += (now - tc->run_start_ns) * 100 / p->scx.weight;
		tc->last_run_ns = now - tc->run_start_ns;
		if (tc->target)
			fuzz_charge_target(p, tc, now - tc->run_start_ns);
	}
}

s32 FUZZ_OPS(fuzz_init_task, struct task_struct *p, struct scx_init_task_args *args)
{
	struct task_ctx *tc = bpf_task_storage_get(&task_ctxs, p, 0, BPF_LOCAL_STORAGE_GET_F_CREATE);

	if (!tc)
		return -12;	/* -ENOMEM */
	tc->own_hold_ns = FUZZ_THREAD_HOLD_NS;
	target_init_task(p, tc, args->fork);
	return 0;
}

void FUZZ_OPS(fuzz_enable, struct task_struct *p)
{
	struct llc_ctx *lc = llc_ctx(cpu_llc(scx_bpf_task_cpu(p)));

	p->scx.dsq_vtime = lc ? lc->vtime_now : 0;
}

void FUZZ_OPS(fuzz_tick, struct task_struct *p)
{
	kick_dying();
	kick_deferred_work();
	if (!global_queue)
		scan_for_stranded(bpf_get_smp_processor_id(), bpf_ktime_get_ns());
	if (test_fault == FUZZ_FAULT_BPF_ERROR)
		fuzz_error("injected test fault on cpu %d", bpf_get_smp_processor_id());
}

s32 FUZZ_OPS_SLEEPABLE(fuzz_init)
{
	s32 err;

	if (!plan.nr_cpus || plan.nr_cpu_ids > FUZZ_MAX_CPUS || plan.nr_llcs > FUZZ_MAX_LLCS) {
		fuzz_error("no usable topology plan (%u CPUs, %u LLCs)", plan.nr_cpus, plan.nr_llcs);
		return -22;	/* -EINVAL */
	}
	if (global_queue) {
		err = scx_bpf_create_dsq(FUZZ_DSQ_GLOBAL, -1);
		if (err)
			fuzz_error("cannot create the global DSQ: %d", err);
		return err;
	}
	err = topo_init();
	if (!err)
		hotplug_init();
	if (!err)
		err = fuzz_init_queues();
	if (!err)
		err = preempt_init();
	if (!err)
		err = images_init();
	return err ? err : serial_init();
}

void FUZZ_OPS(fuzz_exit, struct scx_exit_info *ei)
{
	bpf_probe_read_kernel_str(exit_record.reason, sizeof(exit_record.reason), ei->reason);
	bpf_probe_read_kernel_str(exit_record.msg, sizeof(exit_record.msg), ei->msg);
	if (bpf_core_field_exists(ei->dump))
		bpf_probe_read_kernel_str(exit_record.dump, sizeof(exit_record.dump), ei->dump);
	exit_record.exit_code = ei->exit_code;
	/* Published last: the loader treats kind != 0 as "exit record complete". */
	asm volatile("" ::: "memory");
	*(volatile s32 *)&exit_record.kind = ei->kind;
}

/* The scheduler's own state in the kernel's dump on an error exit (a stall: who holds the turn). */
void FUZZ_OPS(fuzz_dump, struct scx_dump_ctx *dctx)
{
	u64 turn = serial_turn, now = bpf_ktime_get_ns();

	dump_line("scx_fuzz: now %llu ns; serialize %u: turn pid %u running %u stamped %llu ms ago; %d waiting",
		  now, knobs.serialize, turn_pid(turn), (u32)!!(turn & TURN_RUNNING),
		  turn ? (((now >> 20) - (turn >> TURN_TIME_SHIFT)) & ((1ULL << 31) - 1)) * 1049 / 1000 : 0,
		  knobs.serialize ? scx_bpf_dsq_nr_queued(FUZZ_DSQ_SERIAL) : 0);
}

/* Never loaded unless --test-fault=verifier: reads past a map value, which the verifier must reject. */
SEC("?syscall")
int fuzz_verifier_reject(void *ctx)
{
	u32 idx = 0;
	u64 *cnt = bpf_map_lookup_elem(&stats, &idx);

	return cnt ? cnt[1] : 0;
}

SEC(".struct_ops.link")
struct sched_ext_ops fuzz_ops = {
	.select_cpu = (void *)fuzz_select_cpu,
	.enqueue = (void *)fuzz_enqueue,
	.dispatch = (void *)fuzz_dispatch,
	.running = (void *)fuzz_running,
	.stopping = (void *)fuzz_stopping,
	.enable = (void *)fuzz_enable,
	.init_task = (void *)fuzz_init_task,
	.tick = (void *)fuzz_tick,
	.cpu_online = (void *)fuzz_cpu_online,
	.cpu_offline = (void *)fuzz_cpu_offline,
	.init = (void *)fuzz_init,
	.exit = (void *)fuzz_exit,
	.dump = (void *)fuzz_dump,
	.flags = SCX_OPS_ENQ_LAST,
	.timeout_ms = FUZZ_WATCHDOG_MS,
	.exit_dump_len = FUZZ_EXIT_DUMP_LEN,
	.name = SCX_FUZZ_NAME,
};
