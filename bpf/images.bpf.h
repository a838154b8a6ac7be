/* SPDX-License-Identifier: GPL-2.0 */
/*
 * --points through the whole target tree. A target process that execs is a
 * new program without probes (they were placed in the old image's file), and
 * the child a process with points forks is not covered by its links (each
 * is filtered to one process). Either is told to the loader (image_rb) and
 * waits in FUZZ_DSQ_IMAGE until the loader says its points are placed
 * (image_ready) or knobs.image_wait_ns has passed; a loader that dies takes
 * the scheduler with it, so nothing waits longer.
 *
 * A fork's child waits from its first enqueue, before it ever ran. An exec
 * happens in the running thread, which is taken off its CPU by a timer
 * FUZZ_IMAGE_KICK_NS later, not by a kick from the exec's tracepoint: that
 * would preempt it inside the BPF program, migration-disabled and in an RCU
 * read-side section. Held there, it would stall every synchronize_rcu() (the
 * loader's own uprobe attach among them, on 7.x), and since 6.15 the kernel
 * puts a migration-disabled task back on its CPU without ops.enqueue. So it
 * is held only where it was preempted outside both, else kicked again later.
 */
#ifndef FUZZ_IMAGES_BPF_H
#define FUZZ_IMAGES_BPF_H

#include "common.bpf.h"
#include "scx_fuzz.h"
#include "topo.bpf.h"
#include "stats.bpf.h"
#include "task.bpf.h"
#include "target.bpf.h"
#include "fuzz.bpf.h"

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, FUZZ_IMAGE_RB_BYTES);
} image_rb SEC(".maps");

/* Written by the loader: processes whose points are placed (LRU: a late answer ages out) ... */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, FUZZ_MAX_IMAGE_PROCS);
	__type(key, u32);
	__type(value, u8);
} image_ready SEC(".maps");

/* ... and processes that have points: a child they fork waits for its own. */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, FUZZ_MAX_IMAGE_PROCS);
	__type(key, u32);
	__type(value, u8);
} pointed_procs SEC(".maps");

struct image_timer {
	struct bpf_timer timer;
	u64 armed;
};

/* Per CPU: the kick of an exec'd thread. Entry FUZZ_MAX_CPUS: the poll of the waiting ones. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, FUZZ_MAX_CPUS + 1);
	__type(key, u32);
	__type(value, struct image_timer);
} image_timers SEC(".maps");

static struct image_timer *image_timer(u32 key)
{
	return bpf_map_lookup_elem(&image_timers, &key);
}

/* p's process needs points: it waits from now, and the loader hears of it. */
static bool image_wait(struct task_struct *p, struct task_ctx *tc, u32 kind, u32 parent)
{
	struct fuzz_image_event *e = bpf_ringbuf_reserve(&image_rb, sizeof(*e), 0);

	if (!e)
		return false;	/* the loader is behind: this one runs without points */
	e->ts_ns = bpf_ktime_get_ns();
	tc->image_wait_until = e->ts_ns + knobs.image_wait_ns;
	e->tgid = p->tgid;
	e->kind = kind;
	e->parent = parent;
	e->_pad = 0;
	bpf_ringbuf_submit(e, 0);
	stat_inc(FUZZ_STAT_IMAGE_WAITS);
	return true;
}

/* Still waiting? Not once the loader answered, nor past the deadline. */
static bool image_waiting(struct task_struct *p, struct task_ctx *tc)
{
	u64 now = bpf_ktime_get_ns(), since = now + knobs.image_wait_ns - tc->image_wait_until;
	u32 tgid = p->tgid;

	if (!tc->image_wait_until)
		return false;
	if (bpf_map_lookup_elem(&image_ready, &tgid)) {
		bpf_map_delete_elem(&image_ready, &tgid);
	} else if (time_before(now, tc->image_wait_until)) {
		return true;
	} else {
		stat_inc(FUZZ_STAT_IMAGE_TIMEOUTS);
	}
	tc->image_wait_until = 0;
	stat_add(FUZZ_STAT_IMAGE_WAIT_NS, since);
	return false;
}

/* Preempted inside a BPF program (or any migration-disabled or RCU read-side code)? */
static bool image_inside(const struct task_struct *p)
{
	return (bpf_core_field_exists(p->migration_disabled) && p->migration_disabled) ||
	       (bpf_core_field_exists(p->rcu_read_lock_nesting) && p->rcu_read_lock_nesting > 0);
}

static int image_kick_fn(void *map, u32 *key, struct image_timer *t)
{
	kick_cpu(*key, SCX_KICK_PREEMPT);
	return 0;
}

/* A waiting thread runs here: off this CPU soon, from a timer's interrupt. */
static void image_kick_soon(void)
{
	struct image_timer *t = image_timer(bpf_get_smp_processor_id());

	if (t)
		bpf_timer_start(&t->timer, FUZZ_IMAGE_KICK_NS, BPF_F_TIMER_CPU_PIN);
}

/* While some wait: every FUZZ_IMAGE_POLL_NS an idle CPU of each LLC looks for answers. */
static int image_poll_fn(void *map, u32 *key, struct image_timer *t)
{
	int l;

	if (scx_bpf_dsq_nr_queued(FUZZ_DSQ_IMAGE) <= 0) {
		t->armed = 0;
		return 0;
	}
	bpf_rcu_read_lock();	/* the cpumask kptrs need it here */
	bpf_for(l, 0, plan.nr_llcs)
		kick_idle_in(llc_cpumask(bounded(l, FUZZ_MAX_LLCS)));
	bpf_rcu_read_unlock();
	bpf_timer_start(&t->timer, FUZZ_IMAGE_POLL_NS, 0);
	return 0;
}

/* ops.enqueue of a waiting target: into the waiting queue, if preempted where it may wait. */
static bool image_hold(struct task_struct *p, struct task_ctx *tc, u64 enq_flags)
{
	struct image_timer *poll = image_timer(FUZZ_MAX_CPUS);

	if (!poll || !image_waiting(p, tc) || image_inside(p))
		return false;	/* inside: it runs on, and ops.running kicks it again */
	if (tc->held)
		fuzz_unhold(p, tc);
	tc->fair_vtime = p->scx.dsq_vtime;
	tc->held = 1;
	dsq_insert_vtime(p, FUZZ_DSQ_IMAGE, slice_ns, tc->image_wait_until, enq_flags);
	if (!poll->armed) {
		poll->armed = 1;
		bpf_timer_start(&poll->timer, FUZZ_IMAGE_POLL_NS, 0);
	}
	return true;
}

/* ops.running: a waiting thread that could not be held yet is kicked again soon. */
static void image_check_running(struct task_struct *p, struct task_ctx *tc)
{
	if (tc->image_wait_until && image_waiting(p, tc))
		image_kick_soon();
}

/* ops.dispatch: the waiting processes that were answered (or waited long enough) run. */
__noinline u32 image_release(s32 cpu)
{
	struct task_struct *p;
	struct task_ctx *tc;
	u32 moved = 0;
	s32 own;

	if (scx_bpf_dsq_nr_queued(FUZZ_DSQ_IMAGE) <= 0)
		return 0;
	bpf_for_each(scx_dsq, p, FUZZ_DSQ_IMAGE, 0) {
		if (!(tc = task_ctx(p)) || image_waiting(p, tc))
			continue;
		tc->held = 0;
		tc->restore_vtime = 1;	/* its fair vtime comes back when it runs */
		if (bpf_cpumask_test_cpu(cpu, p->cpus_ptr)) {
			if (!dsq_move(DSQ_ITER, p, SCX_DSQ_LOCAL, 0))
				continue;
		} else {
			own = scx_bpf_task_cpu(p);
			if (!dsq_move(DSQ_ITER, p, SCX_DSQ_LOCAL_ON | own, 0))
				continue;
			kick_cpu(own, SCX_KICK_IDLE);
		}
		if (++moved >= FUZZ_MAX_BATCH)
			break;
	}
	return moved;
}

SEC("tp_btf/sched_process_exec")
int BPF_PROG(fuzz_image_exec)
{
	struct task_struct *p = bpf_get_current_task_btf();
	struct task_ctx *tc;

	if (!knobs.image_wait_ns || !(tc = task_ctx(p)))
		return 0;
	promote_root(p, tc);
	if ((tc->in_tree || tc->target) && image_wait(p, tc, FUZZ_IMAGE_EXEC, 0))
		image_kick_soon();
	return 0;
}

SEC("tp_btf/sched_process_fork")
int BPF_PROG(fuzz_image_fork, struct task_struct *parent, struct task_struct *child)
{
	struct task_ctx *tc;
	u32 ptgid;

	if (!knobs.image_wait_ns || !parent || !child || child->pid != child->tgid)
		return 0;	/* a thread shares its process's probes */
	ptgid = parent->tgid;
	if (!bpf_map_lookup_elem(&pointed_procs, &ptgid) || !(tc = task_ctx(child)) || !tc->in_tree)
		return 0;
	image_wait(child, tc, FUZZ_IMAGE_FORK, ptgid);
	return 0;
}

/* ops.init: the waiting queue and the timers. */
static s32 images_init(void)
{
	struct image_timer *t;
	s32 err;
	int c;

	if (!knobs.image_wait_ns)
		return 0;
	err = scx_bpf_create_dsq(FUZZ_DSQ_IMAGE, -1);
	if (err) {
		fuzz_error("cannot create the DSQ of new processes: %d", err);
		return err;
	}
	bpf_for(c, 0, plan.nr_cpu_ids + 1) {
		u32 key = c == plan.nr_cpu_ids ? FUZZ_MAX_CPUS : c;

		if (!(t = image_timer(key)))
			return -22;	/* -EINVAL */
		err = bpf_timer_init(&t->timer, &image_timers, 1 /* CLOCK_MONOTONIC */);
		if (!err)
			err = bpf_timer_set_callback(&t->timer, key == FUZZ_MAX_CPUS ? image_poll_fn : image_kick_fn);
		if (err) {
			fuzz_error("cannot set up the timers of new processes: %d", err);
			return err;
		}
	}
	return 0;
}

#endif /* FUZZ_IMAGES_BPF_H */
