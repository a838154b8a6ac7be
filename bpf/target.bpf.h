/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which tasks are fuzzed. A process tree registered by the loader (the
 * gated CMD child, or --pid) is fuzzed with every thread and descendant it
 * ever has: membership is inherited at fork. --comm and --cgroup are checked
 * again at every enqueue, because threads rename themselves and tasks move
 * between cgroups after they are created.
 *
 * Each task also gets its PRNG key here: a thread created by a thread of key
 * K as its n-th child gets fuzz_child_key(K, n), so keys depend only on the
 * program's own order of creation, not on pids or CPUs.
 */
#ifndef FUZZ_TARGET_BPF_H
#define FUZZ_TARGET_BPF_H

#include "common.bpf.h"
#include "scx_fuzz.h"
#include "fuzz_rand.h"
#include "stats.bpf.h"
#include "task.bpf.h"
#include "trace.bpf.h"

const volatile struct fuzz_knobs knobs;	/* set by the loader before load */
const volatile __u32 loader_tgid;		/* its children may become roots once registered */

/* Written by the loader while attached (serve): a unit's cgroup is made anew at each restart. */
volatile __u64 target_cgroup_id;	/* the --cgroup directory's id; 0: it is not there */
volatile __u32 unfuzzed_pct;		/* back-off: share of target events left unfuzzed */
__u64 target_deaths;			/* target processes whose main thread ended badly */

/* tgids whose trees are fuzzed, written by the loader before attach. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, u32);
	__type(value, u8);
	__uint(max_entries, FUZZ_MAX_ROOTS);
} target_roots SEC(".maps");

/* Processes with a target thread other than the main one: their death is reported too (--comm). */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);	/* a death unseen (its main thread unscheduled) ages out */
	__type(key, u32);
	__type(value, u8);
	__uint(max_entries, 8192);
} target_procs SEC(".maps");

#define FUZZ_ROOT_KEY 0		/* parent key of a registered process's main thread */
#define FUZZ_MAX_DEPTH 32	/* ancestors walked to find a tree's root at attach */

static bool is_root_tgid(u32 tgid)
{
	return bpf_map_lookup_elem(&target_roots, &tgid) != NULL;
}

/* p, or one of its ancestors, is a registered process (for tasks that exist at attach). */
static bool in_target_tree(struct task_struct *p)
{
	struct task_struct *t = p;
	u32 tgid;
	int i;

	for (i = 0; i < FUZZ_MAX_DEPTH; i++) {
		tgid = BPF_CORE_READ(t, tgid);
		if (is_root_tgid(tgid))
			return true;
		if (tgid <= 1)
			return false;
		t = BPF_CORE_READ(t, real_parent);
		if (!t)
			return false;
	}
	return false;
}

/* p's name equals `pat` (NUL-padded), or starts with it if `prefix`. */
static bool comm_is(const struct task_struct *p, const volatile char *pat, bool prefix)
{
	char c;
	int i;

	for (i = 0; i < FUZZ_COMM_LEN; i++) {
		c = pat[i];
		if (!c)
			return prefix || !p->comm[i];
		if (p->comm[i] != c)
			return false;
	}
	return true;
}

static bool comm_matches(const struct task_struct *p)
{
	return comm_is(p, knobs.comm, knobs.comm_prefix);
}

/* Named like a thread the user keeps out of fuzzing (a JVM's compiler, GC ... with --java). */
static bool excluded(const struct task_struct *p)
{
	u32 i;

	bpf_for(i, 0, knobs.nr_excludes) {
		u32 k = bounded(i, FUZZ_MAX_EXCLUDES);

		if (comm_is(p, knobs.exclude[k], knobs.exclude_prefix & (1U << k)))
			return true;
	}
	return false;
}

/* In the subtree of the --cgroup directory: its ancestor at that depth is it. */
static bool in_target_cgroup(struct task_struct *p)
{
	struct cgroup *cg = BPF_CORE_READ(p, cgroups, dfl_cgrp), *anc = NULL;
	u32 lvl = knobs.cgroup_level;

	if (!cg || BPF_CORE_READ(cg, level) < (int)lvl || lvl > 1024)
		return false;
	if (bpf_probe_read_kernel(&anc, sizeof(anc), (void *)cg +
				  bpf_core_field_offset(struct cgroup, ancestors) + lvl * sizeof(anc)))
		return false;
	return anc && BPF_CORE_READ(anc, kn, id) == target_cgroup_id;
}

static bool matches_now(struct task_struct *p)
{
	return ((knobs.target_by & FUZZ_TARGET_COMM) && comm_matches(p)) ||
	       ((knobs.target_by & FUZZ_TARGET_CGROUP) && in_target_cgroup(p));
}

/*
 * A child of the loader becomes a root once the loader has registered its
 * pid: checked at its enqueues and runs, and when it creates a thread, so
 * that everything it creates after registration inherits membership.
 */
static void promote_root(struct task_struct *p, struct task_ctx *tc)
{
	if (!tc->maybe_root || !is_root_tgid(p->tgid))
		return;
	tc->maybe_root = 0;
	tc->in_tree = 1;
	tc->target = 1;
	tc->key = fuzz_child_key(FUZZ_ROOT_KEY, 0);
}

/* ops.init_task: tree membership and PRNG key, inherited from the creating thread. */
static void target_init_task(struct task_struct *p, struct task_ctx *tc, bool fork)
{
	struct task_ctx *parent = NULL;

	tc->last_cpu = -1;
	if (!knobs.target_by || (p->flags & PF_KTHREAD))
		return;
	if (fork)
		parent = bpf_task_storage_get(&task_ctxs, bpf_get_current_task_btf(), 0, 0);
	if (parent) {
		promote_root(bpf_get_current_task_btf(), parent);
		tc->key = fuzz_child_key(parent->key, parent->nr_children++);
		tc->in_tree = parent->in_tree;
		/* forked by the loader: registered as a root after fork returns, checked at enqueue */
		tc->maybe_root = (bpf_get_current_pid_tgid() >> 32) == loader_tgid;
	} else {
		tc->in_tree = (knobs.target_by & FUZZ_TARGET_TREE) && in_target_tree(p);
		/* A registered process's main thread has a fixed key; others exist already: their pid. */
		tc->key = p->pid == p->tgid && is_root_tgid(p->tgid) ?
			  fuzz_child_key(FUZZ_ROOT_KEY, 0) : fuzz_child_key(1, p->pid);
	}
	tc->target = tc->in_tree || matches_now(p);
}

enum { BACKOFF_UNDRAWN, BACKOFF_FUZZED, BACKOFF_UNFUZZED };

/*
 * serve's back-off: whether this event is scheduled as a non-target's. A
 * wake-up's ops.select_cpu draws (`keep`) and the ops.enqueue after it uses
 * the same draw, so a wake-up is fuzzed or not as a whole.
 */
static bool backed_off(struct task_ctx *tc, bool keep)
{
	u8 draw = keep ? BACKOFF_UNDRAWN : tc->backoff_draw;

	tc->backoff_draw = BACKOFF_UNDRAWN;
	if (draw == BACKOFF_UNDRAWN) {
		if (!unfuzzed_pct)
			return false;
		draw = bpf_get_prandom_u32() % 100 < unfuzzed_pct ? BACKOFF_UNFUZZED : BACKOFF_FUZZED;
		if (draw == BACKOFF_UNFUZZED)
			stat_inc(FUZZ_STAT_BACKED_OFF);
	}
	if (keep)
		tc->backoff_draw = draw;
	return draw == BACKOFF_UNFUZZED;
}

static void note_target(struct task_struct *p, struct task_ctx *tc)
{
	u32 tgid = p->tgid;
	u8 one = 1;

	if (tc->was_target)
		return;
	tc->was_target = 1;
	if (p->pid != p->tgid)
		bpf_map_update_elem(&target_procs, &tgid, &one, BPF_ANY);
}

/* The task's context if it is a target right now, else NULL; `wakeup` from ops.select_cpu. */
static struct task_ctx *target_ctx_at(struct task_struct *p, bool wakeup)
{
	struct task_ctx *tc;

	if (!knobs.target_by || (p->flags & PF_KTHREAD) || !(tc = task_ctx(p)))
		return NULL;
	promote_root(p, tc);
	if (knobs.target_by & (FUZZ_TARGET_COMM | FUZZ_TARGET_CGROUP))
		tc->target = tc->in_tree || matches_now(p);
	else
		tc->target = tc->in_tree;
	/* names change after creation (JVM threads name themselves): checked every time */
	if (tc->target && knobs.nr_excludes && excluded(p))
		tc->target = 0;
	if (tc->target)
		note_target(p, tc);
	if (tc->target && (unfuzzed_pct || tc->backoff_draw) && backed_off(tc, wakeup))
		tc->target = 0;
	return tc->target ? tc : NULL;
}

static struct task_ctx *target_ctx(struct task_struct *p)
{
	return target_ctx_at(p, false);
}

#define TASK_DEAD_STATE 0x80	/* p->__state in its last switch away */

#define SIGTERM_NR 15

/* Ended by SIGTERM, or exit status 143 (a shell's for it): asked to stop, not a crash. */
static bool asked_to_stop(int exit_code)
{
	return (exit_code & 0x7f) == SIGTERM_NR || (!(exit_code & 0x7f) && (exit_code >> 8 & 0xff) == 128 + SIGTERM_NR);
}

/*
 * A target process's main thread leaving its CPU for the last time with a
 * signal or a non-zero status: counted and traced, for serve's flight recorder.
 * Every thread of a process killed or exiting as a whole has its status.
 */
static void note_target_death(struct task_struct *p, struct task_ctx *tc, bool runnable)
{
	u32 tgid = p->tgid;
	bool threads_were_targets;

	if (runnable || p->pid != p->tgid || !(p->flags & PF_EXITING) || !(p->__state & TASK_DEAD_STATE))
		return;
	threads_were_targets = bpf_map_lookup_elem(&target_procs, &tgid);
	if (threads_were_targets)
		bpf_map_delete_elem(&target_procs, &tgid);
	if ((!tc->was_target && !threads_were_targets) || !p->exit_code || asked_to_stop(p->exit_code))
		return;
	__sync_fetch_and_add(&target_deaths, 1);
	trace_event(p, FUZZ_EV_DIED, p->exit_code);
}

#endif /* FUZZ_TARGET_BPF_H */
