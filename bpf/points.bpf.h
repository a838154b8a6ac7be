/* SPDX-License-Identifier: GPL-2.0 */
/*
 * --points: preemption points inside the program. The loader places uprobes
 * (one uprobe_multi link, filtered to the target process) at chosen
 * instructions: lock calls, function entries, a seeded sample of instruction
 * boundaries. A target thread that reaches one traps into the kernel right
 * before that instruction runs. A uprobe program may not call sched_ext
 * kfuncs, so it only notes the hit (this CPU's pending point); the kernel
 * handles the trap in uprobe_notify_resume(), and a tracing program at its
 * exit -- still in the thread's context, before it returns to user space --
 * decides by a seeded draw whether to act, and acts: the thread is kicked
 * off its CPU there and held back (preempt-and-hold), or, serialized, its
 * turn passes; under --mode pct the hit is a step where a change point may
 * fall. The last acted points are kept for the failure report.
 */
#ifndef FUZZ_POINTS_BPF_H
#define FUZZ_POINTS_BPF_H

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

/* The point a thread trapped on, per CPU, between the uprobe and the handler's exit. */
struct pending_point {
	u32 pid;
	u32 point;
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, u32);
	__type(value, struct pending_point);
} pending_points SEC(".maps");

/* Hits per point (the loader drops points hit too often: a trap each costs microseconds). */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, FUZZ_MAX_POINTS);
	__type(key, u32);
	__type(value, u64);
} point_hits SEC(".maps");

/* The last points acted on, newest at (point_log_n - 1) % FUZZ_POINT_LOG: the failure report. */
struct fuzz_point_act point_log[FUZZ_POINT_LOG];
__u64 point_log_n;

/* This run's chance to act at a hit (the loader sets it per run: --point-prob or drawn). */
__u32 point_ppm_run;

SEC("uprobe.multi")
int fuzz_point_hit(struct pt_regs *ctx)
{
	u32 point = bpf_get_attach_cookie(ctx), zero = 0;
	struct pending_point *pp = bpf_map_lookup_elem(&pending_points, &zero);
	u64 *hits = bpf_map_lookup_elem(&point_hits, &point);

	if (hits)
		__sync_fetch_and_add(hits, 1);
	if (pp) {
		pp->pid = bpf_get_current_pid_tgid();
		pp->point = point;
	}
	return 0;
}

static void log_point(struct task_struct *p, u32 point)
{
	u64 n = __sync_fetch_and_add(&point_log_n, 1);
	struct fuzz_point_act *a = &point_log[n % FUZZ_POINT_LOG];

	a->ts_ns = bpf_ktime_get_ns();
	a->tid = p->pid;
	a->point = point;
}

/* The trap is handled: act on the point this thread hit, by chance. */
static void act_on_point(void)
{
	struct task_struct *p = bpf_get_current_task_btf();
	struct pending_point *pp;
	struct task_ctx *tc;
	u32 zero = 0, point;

	pp = bpf_map_lookup_elem(&pending_points, &zero);
	if (!pp || pp->pid != p->pid || !pp->pid)
		return;
	point = pp->point;
	pp->pid = 0;
	tc = task_ctx(p);
	if (!tc || !tc->target)
		return;
	stat_inc(FUZZ_STAT_POINT_HITS);
	if (knobs.mode == FUZZ_MODE_PCT) {
		if (!pct_sync_step(p, tc))
			return;
	} else if (tc->kicked || !hold_share_left(p, tc) ||
		   !fuzz_chance(fuzz_stream_draw(run_seed, tc->key, FUZZ_STREAM_POINT, tc->point_hits++),
				point_ppm_run)) {
		return;
	} else {
		tc->kicked = FUZZ_EV_POINT;
	}
	kick_cpu(bpf_get_smp_processor_id(), SCX_KICK_PREEMPT);
	stat_inc(FUZZ_STAT_POINT_ACTS);
	trace_event(p, FUZZ_EV_POINT, point);
	log_point(p, point);
}

/* A probe's trap, handled on the way back to user space. */
SEC("fexit/uprobe_notify_resume")
int BPF_PROG(fuzz_point_resume, struct pt_regs *regs)
{
	act_on_point();
	return 0;
}

/* A return probe, handled in the uretprobe trampoline (a system call since 6.11, not a trap). */
SEC("fexit/uprobe_handle_trampoline")
int BPF_PROG(fuzz_point_return, struct pt_regs *regs)
{
	act_on_point();
	return 0;
}

#endif /* FUZZ_POINTS_BPF_H */
