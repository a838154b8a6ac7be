/* SPDX-License-Identifier: GPL-2.0 */
/*
 * BPF-side helpers shared by scx_fuzz's programs: struct_ops wrappers, error
 * reporting and the kfuncs whose names differ between kernel versions.
 * Every kfunc is a weak ksym so one object loads on 6.12 to 7.x alike: each
 * wrapper below calls the newest name the running kernel has (bpf_ksym_exists),
 * and the verifier drops the branches for the names it lacks.
 */
#ifndef FUZZ_COMMON_BPF_H
#define FUZZ_COMMON_BPF_H

#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>

#define FUZZ_OPS(name, args...) SEC("struct_ops/" #name) BPF_PROG(name, ##args)
#define FUZZ_OPS_SLEEPABLE(name, args...) SEC("struct_ops.s/" #name) BPF_PROG(name, ##args)

/* Kfuncs every supported kernel (>= 6.13 names) has. */
s32 scx_bpf_create_dsq(u64 dsq_id, s32 node) __ksym __weak;
s32 scx_bpf_select_cpu_dfl(struct task_struct *p, s32 prev_cpu, u64 wake_flags, bool *is_idle) __ksym __weak;
s32 scx_bpf_pick_idle_cpu(const struct cpumask *cpus_allowed, u64 flags) __ksym __weak;
void scx_bpf_kick_cpu(s32 cpu, u64 flags) __ksym __weak;
void scx_bpf_dsq_insert(struct task_struct *p, u64 dsq_id, u64 slice, u64 enq_flags) __ksym __weak;
void scx_bpf_dsq_insert_vtime(struct task_struct *p, u64 dsq_id, u64 slice, u64 vtime, u64 enq_flags) __ksym __weak;
s32 scx_bpf_dsq_nr_queued(u64 dsq_id) __ksym __weak;
bool scx_bpf_test_and_clear_cpu_idle(s32 cpu) __ksym __weak;
s32 scx_bpf_task_cpu(const struct task_struct *p) __ksym __weak;
bool scx_bpf_dsq_move_to_local(u64 dsq_id) __ksym __weak;
void scx_bpf_error_bstr(char *fmt, unsigned long long *data, u32 data__sz) __ksym __weak;
void scx_bpf_dump_bstr(char *fmt, unsigned long long *data, u32 data__sz) __ksym __weak;

struct task_struct *bpf_task_from_pid(s32 pid) __ksym;
void bpf_task_release(struct task_struct *p) __ksym;

/* Kfuncs only newer kernels have (7.x): used when present. */
bool scx_bpf_dsq_insert___v2___compat(struct task_struct *p, u64 dsq_id, u64 slice, u64 enq_flags) __ksym __weak;
bool scx_bpf_dsq_move_to_local___v2___compat(u64 dsq_id, u64 enq_flags) __ksym __weak;

/* 6.12's names for the queue kfuncs, renamed in 6.13 and gone by 7.x. */
void scx_bpf_dispatch___compat(struct task_struct *p, u64 dsq_id, u64 slice, u64 enq_flags) __ksym __weak;
void scx_bpf_dispatch_vtime___compat(struct task_struct *p, u64 dsq_id, u64 slice, u64 vtime,
				     u64 enq_flags) __ksym __weak;
bool scx_bpf_consume___compat(u64 dsq_id) __ksym __weak;
bool scx_bpf_dispatch_from_dsq___compat(struct bpf_iter_scx_dsq *it__iter, struct task_struct *p,
					u64 dsq_id, u64 enq_flags) __ksym __weak;
bool scx_bpf_dispatch_vtime_from_dsq___compat(struct bpf_iter_scx_dsq *it__iter, struct task_struct *p,
					      u64 dsq_id, u64 enq_flags) __ksym __weak;
void scx_bpf_dispatch_from_dsq_set_vtime___compat(struct bpf_iter_scx_dsq *it__iter, u64 vtime) __ksym __weak;

/* task_struct.flags bits (include/linux/sched.h) */
#define PF_EXITING 0x00000004	/* getting shut down */
#define PF_KTHREAD 0x00200000	/* a kernel thread */

/* Inside bpf_for_each(scx_dsq, ...): the iterator libbpf's macro declares as ___it. */
#define DSQ_ITER (&___it)

/* Call a kfunc that takes a format and its arguments as an array (the *_bstr ones). */
#define call_bstr(kfunc, fmt, args...)						\
({										\
	static char ___fmt[] = fmt;						\
	unsigned long long ___param[___bpf_narg(args) + 1] = {};		\
	___bpf_fill(___param, args);						\
	kfunc(___fmt, ___param, sizeof(___param));				\
})

/* Report an error from BPF: the kernel detaches the scheduler with this message. */
#define fuzz_error(fmt, args...) call_bstr(scx_bpf_error_bstr, fmt, ##args)
/* A line of the kernel's state dump on an error exit (ops.dump). */
#define dump_line(fmt, args...) call_bstr(scx_bpf_dump_bstr, fmt, ##args)

/*
 * Before 7.x (no scx_bpf_dsq_insert___v2), the verifier explores ops.dispatch
 * with every helper inlined past its 1M-instruction limit (6.12) or at 411K of
 * it (6.16, 17 s to load in the emulator), so there a few helpers run as
 * global functions, each verified once (44K-80K, 1.2-1.8 s). On 7.x (270K) they stay
 * static: as globals there, --points found a one-instruction race less often
 * (docs/design.md). A load-time constant: the verifier drops the other branch.
 */
static __always_inline bool split_for_verifier(void)
{
	return !bpf_ksym_exists(scx_bpf_dsq_insert___v2___compat);
}

/* The queue kfuncs under the newest name this kernel has: 7.x, 6.13+, 6.12. */
static __always_inline void dsq_insert(struct task_struct *p, u64 dsq_id, u64 slice, u64 enq_flags)
{
	if (bpf_ksym_exists(scx_bpf_dsq_insert___v2___compat))
		scx_bpf_dsq_insert___v2___compat(p, dsq_id, slice, enq_flags);
	else if (bpf_ksym_exists(scx_bpf_dsq_insert))
		scx_bpf_dsq_insert(p, dsq_id, slice, enq_flags);
	else
		scx_bpf_dispatch___compat(p, dsq_id, slice, enq_flags);
}

static __always_inline void dsq_insert_vtime(struct task_struct *p, u64 dsq_id, u64 slice,
					     u64 vtime, u64 enq_flags)
{
	if (bpf_ksym_exists(scx_bpf_dsq_insert_vtime))
		scx_bpf_dsq_insert_vtime(p, dsq_id, slice, vtime, enq_flags);
	else
		scx_bpf_dispatch_vtime___compat(p, dsq_id, slice, vtime, enq_flags);
}

static __always_inline bool dsq_move_to_local(u64 dsq_id)
{
	if (bpf_ksym_exists(scx_bpf_dsq_move_to_local___v2___compat))
		return scx_bpf_dsq_move_to_local___v2___compat(dsq_id, 0);
	if (bpf_ksym_exists(scx_bpf_dsq_move_to_local))
		return scx_bpf_dsq_move_to_local(dsq_id);
	return scx_bpf_consume___compat(dsq_id);
}

/* Move the iterator's task P to DSQ_ID (inside bpf_for_each(scx_dsq, ...)). */
static __always_inline bool dsq_move(struct bpf_iter_scx_dsq *it, struct task_struct *p,
				     u64 dsq_id, u64 enq_flags)
{
	if (bpf_ksym_exists(scx_bpf_dsq_move))
		return scx_bpf_dsq_move(it, p, dsq_id, enq_flags);
	return scx_bpf_dispatch_from_dsq___compat(it, p, dsq_id, enq_flags);
}

/* Move the iterator's task P to the vtime-ordered DSQ_ID at VTIME. */
static __always_inline bool dsq_move_vtime(struct bpf_iter_scx_dsq *it, struct task_struct *p,
					   u64 dsq_id, u64 vtime, u64 enq_flags)
{
	if (bpf_ksym_exists(scx_bpf_dsq_move_vtime)) {
		scx_bpf_dsq_move_set_vtime(it, vtime);
		return scx_bpf_dsq_move_vtime(it, p, dsq_id, enq_flags);
	}
	scx_bpf_dispatch_from_dsq_set_vtime___compat(it, vtime);
	return scx_bpf_dispatch_vtime_from_dsq___compat(it, p, dsq_id, enq_flags);
}

#endif /* FUZZ_COMMON_BPF_H */
