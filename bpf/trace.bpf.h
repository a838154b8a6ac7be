/* SPDX-License-Identifier: GPL-2.0 */
/*
 * --trace: target events into a BPF ring buffer, read by the loader and
 * written as Chrome/Perfetto trace-event JSON (loader/trace.c). Costs one
 * flag test per event when tracing is off.
 */
#ifndef FUZZ_TRACE_BPF_H
#define FUZZ_TRACE_BPF_H

#include "common.bpf.h"
#include "scx_fuzz.h"
#include "stats.bpf.h"

bool trace_on;	/* set by the loader (bss) */

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4096);	/* resized by the loader when tracing */
} trace_rb SEC(".maps");

static void trace_event(const struct task_struct *p, u32 kind, u64 value)
{
	struct fuzz_trace_event *ev;

	if (!trace_on)
		return;
	ev = bpf_ringbuf_reserve(&trace_rb, sizeof(*ev), 0);
	if (!ev) {
		stat_inc(FUZZ_STAT_TRACE_LOST);
		return;
	}
	ev->ts_ns = bpf_ktime_get_ns();
	ev->value = value;
	ev->tid = p->pid;
	ev->tgid = p->tgid;
	ev->cpu = bpf_get_smp_processor_id();
	ev->kind = kind;
	__builtin_memcpy(ev->comm, p->comm, sizeof(ev->comm));
	ev->_pad = 0;
	bpf_ringbuf_submit(ev, 0);
}

#endif /* FUZZ_TRACE_BPF_H */
