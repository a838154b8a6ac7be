/* SPDX-License-Identifier: GPL-2.0 */
/*
 * --mode windows: the original concurrency-fuzz-scheduler's algorithm, per
 * thread instead of per process, on scx_fuzz's queues and seed. A target
 * alternates a running window (--run MIN:MAX) and a sleeping window (--sleep
 * MIN:MAX) during which it is held off every CPU even when runnable. Windows
 * are checked whenever the task is queued (a wake-up or the end of a slice),
 * so a running window overruns by at most one slice; the slice shrinks with
 * the number of tasks queued in the LLC (--no-scale-slice keeps it).
 */
#ifndef FUZZ_WINDOWS_BPF_H
#define FUZZ_WINDOWS_BPF_H

#include "fuzz.bpf.h"

enum window_state { WINDOW_START, WINDOW_RUNNING, WINDOW_SLEEPING };

static u64 window_len(const struct task_ctx *tc, u64 event, u32 slot, u64 lo, u64 hi)
{
	return fuzz_uniform(draw(tc, event, slot), lo, hi);
}

static void window_open(struct task_ctx *tc, u64 event, u8 state, u64 from)
{
	tc->window = state;
	tc->window_end_ns = from + (state == WINDOW_RUNNING ?
		window_len(tc, event, FUZZ_SLOT_RUN_LEN, knobs.run_min_ns, knobs.run_max_ns) :
		window_len(tc, event, FUZZ_SLOT_DELAY_LEN, knobs.sleep_min_ns, knobs.sleep_max_ns));
}

/* The end of the sleeping window this enqueue falls in, or 0 if the task may run now. */
static u64 window_sleep_until(struct task_ctx *tc, u64 event, u64 now)
{
	u64 until;

	if (tc->window == WINDOW_START)		/* the first window: a coin toss, as in the original */
		window_open(tc, event, draw(tc, event, FUZZ_SLOT_DELAY) & 1 ? WINDOW_SLEEPING :
			    WINDOW_RUNNING, now);
	else if (tc->window == WINDOW_RUNNING && !time_before(now, tc->window_end_ns))
		window_open(tc, event, WINDOW_SLEEPING, now);
	if (tc->window != WINDOW_SLEEPING)
		return 0;
	until = tc->window_end_ns;
	/* the running window starts when the sleep ends, released or not */
	window_open(tc, event, WINDOW_RUNNING, time_before(now, until) ? until : now);
	return time_before(now, until) ? until : 0;
}

/* A target slice shared out among the tasks waiting in its LLC, as the original did. */
static u64 window_slice(struct task_struct *p, u64 slice)
{
	u64 waiting;

	if (!knobs.scale_slice)
		return slice;
	waiting = scx_bpf_dsq_nr_queued(llc_dsq_id(cpu_llc(scx_bpf_task_cpu(p))));
	slice /= 1 + waiting;
	return slice < FUZZ_MIN_SLICE_NS ? FUZZ_MIN_SLICE_NS : slice;
}

/* --mode windows at an enqueue: true if the task was held for the rest of its sleep. */
static bool window_hold(struct task_struct *p, struct task_ctx *tc, u64 event, u64 *slice,
			u64 enq_flags)
{
	u64 now = bpf_ktime_get_ns(), until = window_sleep_until(tc, event, now);

	*slice = window_slice(p, *slice);
	if (!until || !llc_ctx(cpu_llc(scx_bpf_task_cpu(p))))
		return false;
	hold_until(p, tc, now, until, *slice, enq_flags);
	return true;
}

#endif /* FUZZ_WINDOWS_BPF_H */
