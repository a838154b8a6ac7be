/* SPDX-License-Identifier: GPL-2.0 */
/* Per-task state, created when a task joins sched_ext (ops.init_task). */
#ifndef FUZZ_TASK_BPF_H
#define FUZZ_TASK_BPF_H

#include "common.bpf.h"

struct task_ctx {
	u64 run_start_ns;	/* when it last got a CPU */
	u64 key;		/* stable per-thread key of the PRNG (fuzz_child_key) */
	u64 events;		/* fuzzing events so far: the PRNG counter */
	u64 nr_children;	/* threads and processes it created */
	u64 fair_vtime;		/* its vtime while held or jittered */
	u64 release_ns;		/* while held: when it is due */
	s64 delay_credit_ns;	/* delay budget left (token bucket) */
	u64 window_end_ns;	/* --mode windows: when the current window ends */
	u64 runs;		/* times it got a CPU: the --preempt stream's counter */
	u64 last_run_ns;	/* how long its last run lasted */
	u64 queued_ns;		/* --serialize: when it joined the waiting targets */
	u64 serial_key;		/* --serialize: its place in line, drawn when it woke */
	u64 pct_prio;		/* --mode pct: its priority, higher runs first; 0: not drawn yet */
	u64 burst_ns;		/* its usual run length (moving average): --preempt auto draws inside it */
	u64 sync_events;	/* targets it woke or created: the event stream's counter */
	u64 point_hits;		/* --points it reached: the point stream's counter */
	u64 own_hold_ns;	/* --hold-share: its own allowance left, before the process's share */
	u64 image_wait_until;	/* --points: its process waits for its points until then; 0: not */
	u32 pct_drop_to;	/* --mode pct: a change point falls in this run: the priority after it */
	s32 last_cpu;		/* where it last ran; -1 never */
	u8 in_tree;		/* in a registered process tree */
	u8 maybe_root;		/* a child of the loader: a root once its pid is registered */
	u8 target;		/* fuzzed */
	u8 was_target;		/* a target at some point (its death is reported) */
	u8 backoff_draw;	/* serve's back-off drawn for this wake-up by ops.select_cpu */
	u8 held;		/* waiting in a delay queue */
	u8 restore_vtime;	/* queued off its fair vtime: set it back to fair_vtime when it runs */
	u8 woke_on_idle;	/* ops.select_cpu claimed an idle CPU for this wake-up */
	u8 window;		/* --mode windows: enum window_state */
	u8 kicked;		/* enum fuzz_trace_kind of a preemption asked at a wake-up or creation
				 * it made (0: none): its next enqueue holds it back */
};

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct task_ctx);
} task_ctxs SEC(".maps");

static __always_inline struct task_ctx *task_ctx(struct task_struct *p)
{
	return bpf_task_storage_get(&task_ctxs, p, 0, 0);
}

#endif /* FUZZ_TASK_BPF_H */
