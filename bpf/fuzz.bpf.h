/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The perturbations applied to target tasks (docs/design.md, "Fuzzing"):
 *  - a wake-up may be held back: the task waits in its LLC's delay queue,
 *    ordered by release time, and a timer pinned to a CPU of that LLC wakes
 *    an idle CPU there when the earliest is due (busy CPUs release due tasks
 *    whenever they dispatch, at least once per slice);
 *  - vtime jitter shuffles the run order of the targets in a queue;
 *  - a random slice moves the preemption points;
 *  - a forced move puts a woken or released task on a CPU of another LLC, or
 *    of the farthest NUMA node, even when its own CPU is idle.
 * Every choice is a fuzz_draw() of (seed, thread key, event, slot).
 */
#ifndef FUZZ_FUZZ_BPF_H
#define FUZZ_FUZZ_BPF_H

#include "common.bpf.h"
#include "scx_fuzz.h"
#include "fuzz_rand.h"
#include "topo.bpf.h"
#include "stats.bpf.h"
#include "target.bpf.h"
#include "trace.bpf.h"

/* The current run's seed: in .bss, so a campaign gives each run its own without reloading. */
volatile __u64 run_seed;

static __always_inline u64 draw(const struct task_ctx *tc, u64 event, u32 slot)
{
	return fuzz_draw(run_seed, tc->key, event, slot);
}

static u64 target_slice(const struct task_ctx *tc, u64 event, u64 base)
{
	if (!knobs.slice_min_ns)
		return base;
	return fuzz_uniform(draw(tc, event, FUZZ_SLOT_SLICE), knobs.slice_min_ns, knobs.slice_max_ns);
}

/*
 * A vtime offset in [-jitter/2, jitter/2): centred, so targets change places
 * with each other and with non-targets but are not pushed behind them on average.
 */
static s64 target_jitter(const struct task_ctx *tc, u64 event)
{
	if (!knobs.jitter_ns)
		return 0;
	return (s64)fuzz_uniform(draw(tc, event, FUZZ_SLOT_JITTER), 0, knobs.jitter_ns) -
	       (s64)(knobs.jitter_ns / 2);
}

#define PCT_PRIO_BASE (1ULL << 62)	/* drawn priorities lie above it, change points' (1..7) below */
#define PCT_KEY_BASE (1ULL << 63)

/*
 * --serialize: a waiter's place (its DSQ vtime, lowest first). Random within
 * FUZZ_SERIAL_SPREAD_NS of its wake-up; --mode pct: by priority, highest
 * first. A drawn priority has 32 random bits, then the pid to make it distinct.
 */
static u64 serial_key(const struct task_struct *p, struct task_ctx *tc, u64 now, bool woke)
{
	if (knobs.mode != FUZZ_MODE_PCT) {
		/* kept while it is preempted: a thread that got ahead stays ahead until it sleeps */
		if (woke || !tc->serial_key)
			tc->serial_key = now + fuzz_stream_draw(run_seed, tc->key, FUZZ_STREAM_SERIAL,
								tc->events) % FUZZ_SERIAL_SPREAD_NS;
		return tc->serial_key;
	}
	if (!tc->pct_prio)
		tc->pct_prio = PCT_PRIO_BASE | (p->pid & 0x3fffff) |
			       (fuzz_stream_draw(run_seed, tc->key, FUZZ_STREAM_PCT, 0) & 0xffffffff) << 22;
	return PCT_KEY_BASE - tc->pct_prio;
}

/* Arm the LLC's release timer for `due` unless it already fires earlier. */
static void arm_release(struct llc_ctx *lc, u32 llc, u64 now, u64 due)
{
	u64 armed = lc->timer_due_ns;
	/* pinned here when this CPU serves the LLC and stays online */
	u64 flags = cpu_llc(bpf_get_smp_processor_id()) == llc && !this_cpu_leaving() ? BPF_F_TIMER_CPU_PIN : 0;

	if (armed && time_before(now, armed) && !time_before(due, armed))
		return;
	lc->timer_due_ns = due;
	bpf_timer_start(&lc->release_timer, time_before(now, due) ? due - now : 1, flags);
}

static int release_timerfn(void *map, int *key, struct llc_ctx *lc)
{
	lc->timer_due_ns = 0;
	bpf_rcu_read_lock();	/* the cpumask kptr and the kick need an RCU section here */
	kick_idle_in((const struct cpumask *)lc->cpus);
	bpf_rcu_read_unlock();
	return 0;
}

/* Park a target in its LLC's delay queue until `until`; the LLC's timer releases it. */
static __always_inline void hold_until(struct task_struct *p, struct task_ctx *tc, u64 now, u64 until,
				       u64 slice, u64 enq_flags)
{
	u32 llc = cpu_llc(scx_bpf_task_cpu(p));
	struct llc_ctx *lc = llc_ctx(llc);

	if (!lc)
		return;
	tc->fair_vtime = p->scx.dsq_vtime;
	tc->release_ns = until;
	tc->held = 1;
	dsq_insert_vtime(p, delay_dsq_id(llc), slice, until, enq_flags);
	arm_release(lc, llc, now, until);
	stat_inc(FUZZ_STAT_DELAYED);
	stat_add(FUZZ_STAT_DELAY_NS, until - now);
	trace_event(p, FUZZ_EV_DELAY, until - now);
}

/*
 * --hold-share: a target process's threads are held, all together, at most
 * that share of its wall time beyond a first second it may take at once. Per
 * process, not per thread: holding the thread that holds a lock everyone
 * needs (a runtime's global lock) stalls them all, so per-thread shares would
 * add up. Each thread also has a small allowance of its own (a short-lived
 * thread of a small program gets its holds whatever its siblings took). The
 * bucket is shared by the process's CPUs: each refill interval is credited by
 * the CPU that wins the compare-and-swap on its start.
 */
struct proc_hold {
	s64 credit_ns;
	u64 at_ns;
};

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);	/* exited processes age out */
	__uint(max_entries, FUZZ_MAX_HOLD_PROCS);
	__type(key, u32);
	__type(value, struct proc_hold);
} proc_holds SEC(".maps");

static bool hold_share_allows(struct task_struct *p, struct task_ctx *tc, u64 now, u64 d)
{
	struct proc_hold *ph, fresh = { .credit_ns = FUZZ_HOLD_ALLOWANCE_NS, .at_ns = now };
	u32 tgid = p->tgid;
	u64 at, since;

	if (!knobs.hold_share_ppm)
		return true;
	if (tc->own_hold_ns >= d) {
		tc->own_hold_ns -= d;
		return true;
	}
	if (!(ph = bpf_map_lookup_elem(&proc_holds, &tgid))) {
		bpf_map_update_elem(&proc_holds, &tgid, &fresh, BPF_NOEXIST);
		if (!(ph = bpf_map_lookup_elem(&proc_holds, &tgid)))
			return false;
	}
	at = ph->at_ns;
	since = now - at;
	if (time_before(at, now) && __sync_val_compare_and_swap(&ph->at_ns, at, now) == at) {
		if (since > FUZZ_HOLD_ALLOWANCE_NS * 1000)	/* keeps the product below 2^64 */
			since = FUZZ_HOLD_ALLOWANCE_NS * 1000;
		__sync_fetch_and_add(&ph->credit_ns, (s64)(since * knobs.hold_share_ppm / FUZZ_PPM));
		if (ph->credit_ns > (s64)FUZZ_HOLD_ALLOWANCE_NS)
			ph->credit_ns = FUZZ_HOLD_ALLOWANCE_NS;	/* a race here only loses credit */
	}
	if (ph->credit_ns < (s64)d)
		return false;
	__sync_fetch_and_sub(&ph->credit_ns, (s64)d);
	return true;
}

/* Has the process any hold share left? (a point acts only then: a preemption alone costs too) */
static bool hold_share_left(struct task_struct *p, const struct task_ctx *tc)
{
	u32 tgid = p->tgid;
	struct proc_hold *ph;

	return !knobs.hold_share_ppm || tc->own_hold_ns || !(ph = bpf_map_lookup_elem(&proc_holds, &tgid)) ||
	       ph->credit_ns > 0;
}

/* Hold a target back for `d`, within its budget and hold share. */
static bool hold_for(struct task_struct *p, struct task_ctx *tc, u64 d, u64 slice, u64 enq_flags)
{
	u64 now = bpf_ktime_get_ns();

	if (!llc_ctx(cpu_llc(scx_bpf_task_cpu(p))))
		return false;
	if (knobs.budget_ppm && tc->delay_credit_ns < (s64)d) {
		stat_inc(FUZZ_STAT_THROTTLED);
		return false;
	}
	if (!hold_share_allows(p, tc, now, d)) {
		stat_inc(FUZZ_STAT_THROTTLED);
		return false;
	}
	if (knobs.budget_ppm)
		tc->delay_credit_ns -= d;
	hold_until(p, tc, now, now + d, slice, enq_flags);
	return true;
}

/* A hold's length from the random word r: a global function, so the verifier walks it once. */
__noinline u64 hold_len_ns(u64 r)
{
	return fuzz_hold_ns(run_seed, r, knobs.delay_dist, knobs.delay_min_ns, knobs.delay_max_ns,
			    knobs.scale_ppm);
}

static __always_inline u64 drawn_hold(const struct task_ctx *tc, u64 event)
{
	return hold_len_ns(draw(tc, event, FUZZ_SLOT_DELAY_LEN));
}

/* Hold a target's wake-up (its start: event 0) back for a drawn time, by chance. */
static bool hold_target(struct task_struct *p, struct task_ctx *tc, u64 event, u64 slice, u64 enq_flags)
{
	if (!fuzz_chance(draw(tc, event, FUZZ_SLOT_DELAY), event ? knobs.delay_ppm : knobs.start_ppm))
		return false;
	return hold_for(p, tc, drawn_hold(tc, event), slice, enq_flags);
}

/* A preemption we injected (an event's, a burst timer's): hold it back so others run first. */
static bool hold_preempted(struct task_struct *p, struct task_ctx *tc, u64 event, u64 slice, u64 enq_flags)
{
	return knobs.delay_max_ns && hold_for(p, tc, drawn_hold(tc, event), slice, enq_flags);
}

/* Entry `r` (mod count) of a plan CPU list [first, last), or -1 if empty. */
static s32 pick_from(const volatile u16 *list, u32 first, u32 last, u64 r)
{
	if (last <= first)
		return -1;
	return list[bounded(first + r % (last - first), FUZZ_MAX_CPUS)];
}

/* A CPU of another LLC (another CPU, with one LLC), or of the farthest node; -1: stay. */
static s32 forced_cpu_for(const struct task_ctx *tc, u64 event, s32 from, u32 *stat)
{
	u64 where = draw(tc, event, FUZZ_SLOT_WHERE);
	u32 llc = cpu_llc(from), node, n, l, nr_llcs = plan.nr_llcs;
	s32 cpu;

	if (llc == FUZZ_NO_LLC)
		return -1;
	node = bounded(llc_node(llc), FUZZ_MAX_NODES);
	n = plan.node_nr_far[node];
	if (knobs.far_ppm && n && fuzz_chance(draw(tc, event, FUZZ_SLOT_FAR), knobs.far_ppm)) {
		node = bounded(plan.node_far[node][bounded(where % n, FUZZ_MAX_FAR_NODES)], FUZZ_MAX_NODES);
		*stat = FUZZ_STAT_MIGRATE_NODE;
		return pick_from(plan.node_cpus, plan.node_cpu_start[node],
				 plan.node_cpu_start[bounded(node + 1, 2 * FUZZ_MAX_NODES)], where >> 8);
	}
	if (!knobs.migrate_ppm || !fuzz_chance(draw(tc, event, FUZZ_SLOT_MIGRATE), knobs.migrate_ppm))
		return -1;
	*stat = FUZZ_STAT_MIGRATE_LLC;
	if (nr_llcs > 1) {
		l = fuzz_uniform(where, 0, nr_llcs - 2);
		l = l >= llc ? l + 1 : l;
	} else {
		l = llc;
	}
	l = bounded(l, FUZZ_MAX_LLCS);
	cpu = pick_from(plan.llc_cpus, plan.llc_cpu_start[l],
			plan.llc_cpu_start[bounded(l + 1, 2 * FUZZ_MAX_LLCS)], where >> 8);
	if (cpu == from && nr_llcs == 1)
		cpu = pick_from(plan.llc_cpus, plan.llc_cpu_start[l],
				plan.llc_cpu_start[bounded(l + 1, 2 * FUZZ_MAX_LLCS)], (where >> 8) + 1);
	return cpu == from ? -1 : cpu;
}

/*
 * The drawn CPU, or an idle one of its LLC, if the task may go there now:
 * allowed, online, migratable. *stat: the counter to bump once the move is done.
 */
static s32 forced_cpu_here(struct task_struct *p, const struct task_ctx *tc, u64 event, s32 from, u32 *stat)
{
	s32 cpu = forced_cpu_for(tc, event, from, stat), idle;
	const struct cpumask *online;

	if (cpu < 0 || !bpf_cpumask_test_cpu(cpu, p->cpus_ptr))
		return -1;
	if (bpf_core_field_exists(p->migration_disabled) && p->migration_disabled)
		return -1;
	online = llc_cpumask(cpu_llc(cpu));
	if (!online || !bpf_cpumask_test_cpu(cpu, online))
		return -1;
	/* Queued behind a busy CPU's task it would wait a slice nobody drew: prefer an idle one there. */
	if (scx_bpf_test_and_clear_cpu_idle(cpu))
		return cpu;
	idle = scx_bpf_pick_idle_cpu(online, 0);
	if (idle < 0)
		return cpu;
	if (idle != from && bpf_cpumask_test_cpu(idle, p->cpus_ptr))
		return idle;
	kick_cpu(idle, SCX_KICK_IDLE);	/* not usable: hand the claim back */
	return cpu;
}

__noinline s32 forced_cpu_global(struct task_struct *p __arg_trusted, const struct task_ctx *tc,
				 u64 event, s32 from, u32 *stat)
{
	return p && tc && stat ? forced_cpu_here(p, tc, event, from, stat) : -1;
}

static __always_inline s32 forced_cpu(struct task_struct *p, const struct task_ctx *tc, u64 event,
				      s32 from, u32 *stat)
{
	if (split_for_verifier())
		return forced_cpu_global(p, tc, event, from, stat);
	return forced_cpu_here(p, tc, event, from, stat);
}

/* Lateness is owed to the budget, but at most one window's cap: one stall must not end fuzzing. */
static void charge_lateness(struct task_ctx *tc, u64 late)
{
	s64 cap = knobs.budget_ppm * (FUZZ_BUDGET_WINDOW_NS / FUZZ_PPM);

	tc->delay_credit_ns -= late < (u64)cap ? (s64)late : cap;
	if (tc->delay_credit_ns < -cap)
		tc->delay_credit_ns = -cap;
}

/*
 * Move due tasks (all of them if `all`: their LLC lost its CPUs) from LLC
 * `from`'s delay queue to `cpu`'s LLC queue, or to a forced CPU. Returns
 * the number moved; re-arms the timer for the next one not yet due.
 */
static __always_inline u32 release_due_here(u32 from, s32 cpu, bool all)
{
	u32 own = cpu_llc(cpu), moved = 0;
	struct llc_ctx *lc = llc_ctx(own), *from_lc = llc_ctx(from);
	u64 now = bpf_ktime_get_ns(), late;
	bool leaving = this_cpu_leaving();
	s64 jitter;
	struct task_struct *p;
	struct task_ctx *tc;
	u32 stat;
	s32 dest;

	if (!lc || !from_lc || scx_bpf_dsq_nr_queued(delay_dsq_id(from)) <= 0)
		return 0;
	bpf_for_each(scx_dsq, p, delay_dsq_id(from), 0) {
		if (!all && time_before(now, p->scx.dsq_vtime)) {
			arm_release(from_lc, from, now, p->scx.dsq_vtime);
			break;
		}
		if (!(tc = task_ctx(p)))
			continue;
		tc->held = 0;
		/* its vtime is now the release time: the fair one comes back when it runs */
		tc->fair_vtime = clamp_vtime(tc->fair_vtime, lc);
		tc->restore_vtime = 1;
		/* serialized targets wait for their turn; whoever takes it decides the CPU */
		dest = knobs.serialize || leaving ? -1 : forced_cpu(p, tc, tc->events - 1, cpu, &stat);
		if (dest >= 0) {
			if (!dsq_move(DSQ_ITER, p, SCX_DSQ_LOCAL_ON | dest, 0)) {
				kick_cpu(dest, SCX_KICK_IDLE);	/* hand back the idle CPU forced_cpu claimed */
				continue;	/* another CPU of the LLC released it first */
			}
			kick_cpu(dest, SCX_KICK_IDLE);
			stat_inc(stat);
			trace_event(p, stat == FUZZ_STAT_MIGRATE_NODE ? FUZZ_EV_MIGRATE_NODE :
				    FUZZ_EV_MIGRATE_LLC, dest);
		} else if (knobs.serialize) {
			tc->queued_ns = now;
			if (!dsq_move_vtime(DSQ_ITER, p, FUZZ_DSQ_SERIAL, serial_key(p, tc, now, true), 0))
				continue;
		} else {
			jitter = target_jitter(tc, tc->events - 1);
			if (!dsq_move_vtime(DSQ_ITER, p, llc_dsq_id(own),
					    clamp_vtime(tc->fair_vtime, lc) + jitter, 0))
				continue;
		}
		stat_inc(FUZZ_STAT_RELEASED);
		late = time_before(tc->release_ns, now) ? now - tc->release_ns : 0;
		stat_add(FUZZ_STAT_LATE_NS, late);
		if (knobs.budget_ppm)	/* the budget pays for the whole hold, not just the drawn part */
			charge_lateness(tc, late);
		trace_event(p, FUZZ_EV_RELEASE, late);
		if (++moved >= FUZZ_MAX_BATCH)
			break;
	}
	return moved;
}

__noinline u32 release_due_global(u32 from, s32 cpu, u32 all)
{
	return release_due_here(from, cpu, all);
}

static __always_inline u32 release_due(u32 from, s32 cpu, bool all)
{
	if (split_for_verifier())
		return release_due_global(from, cpu, all);
	return release_due_here(from, cpu, all);
}

/* ops.running: start the run clock, undo jitter, count moves between nodes. */
static void fuzz_start_run(struct task_struct *p, struct task_ctx *tc)
{
	s32 cpu = scx_bpf_task_cpu(p);
	bool moved;

	tc->run_start_ns = bpf_ktime_get_ns();
	if (tc->restore_vtime) {
		p->scx.dsq_vtime = tc->fair_vtime;
		tc->restore_vtime = 0;
	}
	if (!knobs.target_by)
		return;
	promote_root(p, tc);
	moved = tc->last_cpu >= 0 && llc_node(cpu_llc(tc->last_cpu)) != llc_node(cpu_llc(cpu));
	tc->last_cpu = cpu;
	stat_inc(tc->target ? FUZZ_STAT_TARGET_RUNS : FUZZ_STAT_OTHER_RUNS);
	if (tc->target)
		trace_event(p, FUZZ_EV_RUN, p->scx.slice);
	if (moved)
		stat_inc(tc->target ? FUZZ_STAT_TARGET_NODE_MOVES : FUZZ_STAT_OTHER_NODE_MOVES);
}

/* ops.stopping, for a target: its run time, which also earns delay budget. */
static void fuzz_charge_target(struct task_struct *p, struct task_ctx *tc, u64 ran_ns)
{
	s64 cap = knobs.budget_ppm * (FUZZ_BUDGET_WINDOW_NS / FUZZ_PPM);

	stat_add(FUZZ_STAT_TARGET_RUN_NS, ran_ns);
	trace_event(p, FUZZ_EV_STOP, ran_ns);
	tc->burst_ns = tc->burst_ns ? (tc->burst_ns * 3 + ran_ns) / 4 : ran_ns;
	if (!knobs.budget_ppm)
		return;
	tc->delay_credit_ns += ran_ns * knobs.budget_ppm / FUZZ_PPM;
	if (tc->delay_credit_ns > cap)
		tc->delay_credit_ns = cap;
}

/* ops.enqueue found it still marked held: the kernel took it out of the delay queue. */
static void fuzz_unhold(struct task_struct *p, struct task_ctx *tc)
{
	tc->held = 0;
	p->scx.dsq_vtime = tc->fair_vtime;
}

/* ops.init: a delay queue per LLC, on the LLC's node, and its release timer. */
static s32 fuzz_init_queues(void)
{
	struct llc_ctx *lc;
	u32 idx, node;
	s32 err;
	int l;

	if (!knobs.target_by)
		return 0;
	bpf_for(l, 0, plan.nr_llcs) {
		idx = bounded(l, FUZZ_MAX_LLCS);
		node = bounded(llc_node(idx), FUZZ_MAX_NODES);
		err = scx_bpf_create_dsq(delay_dsq_id(idx), plan.node_os_id[node]);
		if (err) {
			fuzz_error("cannot create the delay DSQ of LLC %d: %d", idx, err);
			return err;
		}
		lc = llc_ctx(idx);
		if (!lc)
			return -22;	/* -EINVAL */
		err = bpf_timer_init(&lc->release_timer, &llc_ctxs, 1 /* CLOCK_MONOTONIC */);
		if (!err)
			err = bpf_timer_set_callback(&lc->release_timer, release_timerfn);
		if (err) {
			fuzz_error("cannot set up the release timer of LLC %d: %d", idx, err);
			return err;
		}
	}
	return 0;
}

#endif /* FUZZ_FUZZ_BPF_H */
