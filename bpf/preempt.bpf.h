/* SPDX-License-Identifier: GPL-2.0 */
/*
 * --preempt MIN:MAX, --preempt auto: random preemption below the tick. When a
 * target starts running, a timer pinned to its CPU may be armed for a drawn
 * time (auto: within the thread's usual run burst); if that run
 * is still going when it fires, the CPU is kicked with SCX_KICK_PREEMPT and
 * the target goes back through ops.enqueue as a fuzzing event (it may be
 * held back, or, with --serialize, another target thread takes its turn).
 * Timers exist only while a target runs: idle CPUs and non-targets never
 * see one.
 */
#ifndef FUZZ_PREEMPT_BPF_H
#define FUZZ_PREEMPT_BPF_H

#include "common.bpf.h"
#include "scx_fuzz.h"
#include "fuzz_rand.h"
#include "topo.bpf.h"
#include "stats.bpf.h"
#include "task.bpf.h"
#include "target.bpf.h"
#include "trace.bpf.h"
#include "fuzz.bpf.h"

struct cpu_preempt {
	struct bpf_timer timer;
	u64 run;		/* bumped at every start and stop of a target run here */
	u64 armed_run;		/* the run the timer was armed for */
	u64 started_ns;		/* when that run began */
	u32 pid;		/* whose run it is */
	u32 fired;		/* the timer preempted `pid`: its ops.enqueue consumes this */
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, FUZZ_MAX_CPUS);
	__type(key, u32);
	__type(value, struct cpu_preempt);
} cpu_preempts SEC(".maps");

static __always_inline struct cpu_preempt *cpu_preempt(s32 cpu)
{
	u32 key = cpu;

	return bpf_map_lookup_elem(&cpu_preempts, &key);
}

static int preempt_timerfn(void *map, u32 *key, struct cpu_preempt *cp)
{
	/* A stale timer (its run ended: preempt_disarm bumped the counter) does nothing. */
	if (cp->armed_run != cp->run)
		return 0;
	cp->fired = cp->pid;
	kick_cpu(*key, SCX_KICK_PREEMPT);	/* not from a CPU going offline (kick_cpu) */
	return 0;
}

/*
 * --preempt auto: by chance, a time uniform within the thread's usual run
 * burst (down to 1 us), so the preemption lands inside the few microseconds
 * a thread runs between system calls, where real windows are; 0: no timer.
 */
static u64 burst_timer(struct task_ctx *tc)
{
	u64 d = fuzz_burst_timer_ns(run_seed, tc->key, tc->runs++, knobs.burst_timer_ppm,
				    tc->burst_ns ? tc->burst_ns : FUZZ_FIRST_BURST_NS,
				    FUZZ_MIN_BURST_TIMER_NS, FUZZ_MAX_PREEMPT_NS);

	if (d)
		stat_inc(FUZZ_STAT_BURST_TIMERS);
	return d;
}

static __always_inline bool preempt_timers_on(void)
{
	return knobs.preempt_max_ns || knobs.burst_timer_ppm || knobs.mode == FUZZ_MODE_PCT;
}

/* ops.running of a target: arm its CPU's timer for a drawn time. */
static void preempt_arm(struct task_struct *p, struct task_ctx *tc, u64 now)
{
	struct cpu_preempt *cp;
	u64 d;

	if (!preempt_timers_on() || this_cpu_leaving() || !(cp = cpu_preempt(bpf_get_smp_processor_id())))
		return;
	if (tc->pct_drop_to)	/* --mode pct: the change point falls anywhere in a run as long as its last */
		d = fuzz_uniform(fuzz_stream_draw(run_seed, tc->key, FUZZ_STREAM_PCT, ++tc->runs),
				 FUZZ_PCT_DROP_MIN_NS, tc->last_run_ns < FUZZ_PCT_DROP_MIN_NS ? FUZZ_PCT_DROP_MIN_NS :
				 tc->last_run_ns > FUZZ_PCT_DROP_MAX_NS ? FUZZ_PCT_DROP_MAX_NS : tc->last_run_ns);
	else if (knobs.preempt_max_ns)
		d = fuzz_duration(fuzz_stream_draw(run_seed, tc->key, FUZZ_STREAM_PREEMPT, tc->runs++),
				  FUZZ_DIST_LOGUNIFORM, knobs.preempt_min_ns, knobs.preempt_max_ns);
	else if (!(d = burst_timer(tc)))
		return;
	cp->armed_run = ++cp->run;
	cp->started_ns = now;
	cp->pid = p->pid;
	cp->fired = 0;
	if (bpf_timer_start(&cp->timer, d, BPF_F_TIMER_CPU_PIN))
		stat_inc(FUZZ_STAT_TIMER_FAILS);
}

/*
 * ops.stopping of a target: its run is over, so is its timer -- by the run
 * counter, not bpf_timer_cancel(): on 6.16 a timer cancelled from here
 * refused every later bpf_timer_start() (71 of 75 failed), so a stale one
 * fires once, harmlessly, unless the next target run re-arms it first.
 */
static void preempt_disarm(void)
{
	struct cpu_preempt *cp;

	if (!preempt_timers_on() || !(cp = cpu_preempt(bpf_get_smp_processor_id())))
		return;
	cp->run++;
}

/* Was `p` just preempted by its timer? (not consumed) */
static bool preempt_fired(const struct task_struct *p)
{
	struct cpu_preempt *cp;

	return preempt_timers_on() && (cp = cpu_preempt(bpf_get_smp_processor_id())) &&
	       cp->fired == p->pid;
}

/* ops.enqueue of a target: true once if its timer preempted it (counted and traced here). */
static bool preempt_consume(struct task_struct *p)
{
	struct cpu_preempt *cp;

	if (!preempt_fired(p) || !(cp = cpu_preempt(bpf_get_smp_processor_id())))
		return false;
	cp->fired = 0;
	stat_inc(FUZZ_STAT_PREEMPTED);
	trace_event(p, FUZZ_EV_PREEMPT, bpf_ktime_get_ns() - cp->started_ns);
	return true;
}

/* ops.init: one timer per possible CPU. */
static s32 preempt_init(void)
{
	struct cpu_preempt *cp;
	s32 err;
	int c;

	if (!preempt_timers_on())
		return 0;
	bpf_for(c, 0, plan.nr_cpu_ids) {
		cp = cpu_preempt(c);
		if (!cp)
			return -22;	/* -EINVAL */
		err = bpf_timer_init(&cp->timer, &cpu_preempts, 1 /* CLOCK_MONOTONIC */);
		if (!err)
			err = bpf_timer_set_callback(&cp->timer, preempt_timerfn);
		if (err) {
			fuzz_error("cannot set up the preemption timer of cpu %d: %d", c, err);
			return err;
		}
	}
	return 0;
}

#endif /* FUZZ_PREEMPT_BPF_H */
