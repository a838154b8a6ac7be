/* SPDX-License-Identifier: GPL-2.0 */
/*
 * scx_fuzz: a sched_ext scheduler that schedules a target program badly on
 * purpose so its latent concurrency bugs show up (see docs/design.md).
 *
 * This is the foundation: a correct, simple scheduler. A woken task goes
 * straight to an idle CPU when select_cpu finds one; everything else waits in
 * one shared FIFO that every CPU consumes from, and an idle CPU is kicked when
 * work is queued so no CPU has to poll. Per-LLC queues and the fuzzing engine
 * are built on top of this skeleton.
 */
#include "common.bpf.h"
#include "scx_fuzz.h"

char _license[] SEC("license") = "GPL";

/* Tunables, set by the loader between open and load. */
const volatile __u64 slice_ns = 5000000;
const volatile __u32 test_fault = FUZZ_FAULT_NONE;
const volatile struct fuzz_plan plan;	/* the machine's DSQ plan (topo/plan.c) */

/* Why we were detached; the loader polls kind != 0. */
struct fuzz_exit_record exit_record;

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(key_size, sizeof(u32));
	__uint(value_size, sizeof(u64));
	__uint(max_entries, FUZZ_NR_STATS);
} stats SEC(".maps");

static __always_inline void stat_inc(u32 idx)
{
	u64 *cnt = bpf_map_lookup_elem(&stats, &idx);

	if (cnt)
		(*cnt)++;
}

s32 FUZZ_OPS(fuzz_select_cpu, struct task_struct *p, s32 prev_cpu, u64 wake_flags)
{
	bool is_idle = false;
	s32 cpu = scx_bpf_select_cpu_dfl(p, prev_cpu, wake_flags, &is_idle);

	if (is_idle) {
		stat_inc(FUZZ_STAT_DIRECT_IDLE);
		dsq_insert(p, SCX_DSQ_LOCAL, slice_ns, 0);
	}
	return cpu;
}

void FUZZ_OPS(fuzz_enqueue, struct task_struct *p, u64 enq_flags)
{
	s32 cpu;

	stat_inc(FUZZ_STAT_ENQUEUE);
	dsq_insert(p, FUZZ_DSQ_SHARED, slice_ns, enq_flags);
	/* Wake one idle CPU to take it: idle CPUs sleep rather than poll. */
	cpu = scx_bpf_pick_idle_cpu(p->cpus_ptr, 0);
	if (cpu >= 0)
		scx_bpf_kick_cpu(cpu, SCX_KICK_IDLE);
}

void FUZZ_OPS(fuzz_dispatch, s32 cpu, struct task_struct *prev)
{
	if (dsq_move_to_local(FUZZ_DSQ_SHARED))
		stat_inc(FUZZ_STAT_DISPATCH);
	else
		stat_inc(FUZZ_STAT_DISPATCH_EMPTY);
}

void FUZZ_OPS(fuzz_tick, struct task_struct *p)
{
	if (test_fault == FUZZ_FAULT_BPF_ERROR)
		fuzz_error("injected test fault on cpu %d", bpf_get_smp_processor_id());
}

s32 FUZZ_OPS_SLEEPABLE(fuzz_init)
{
	s32 err;

	/* A plan for fewer CPU ids than the kernel has would leave CPUs without a queue. */
	if (!plan.nr_cpus || plan.nr_cpu_ids > FUZZ_MAX_CPUS) {
		fuzz_error("no usable topology plan (%u CPUs)", plan.nr_cpus);
		return -22;	/* -EINVAL */
	}
	err = scx_bpf_create_dsq(FUZZ_DSQ_SHARED, -1);

	if (err)
		fuzz_error("cannot create shared DSQ: %d", err);
	return err;
}

void FUZZ_OPS(fuzz_exit, struct scx_exit_info *ei)
{
	bpf_probe_read_kernel_str(exit_record.reason, sizeof(exit_record.reason), ei->reason);
	bpf_probe_read_kernel_str(exit_record.msg, sizeof(exit_record.msg), ei->msg);
	exit_record.exit_code = ei->exit_code;
	/* Published last: the loader treats kind != 0 as "exit record complete". */
	asm volatile("" ::: "memory");
	*(volatile s32 *)&exit_record.kind = ei->kind;
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
	.tick = (void *)fuzz_tick,
	.init = (void *)fuzz_init,
	.exit = (void *)fuzz_exit,
	.timeout_ms = 10000,
	.name = SCX_FUZZ_NAME,
};
