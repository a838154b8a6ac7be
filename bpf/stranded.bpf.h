/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A guard against tasks stranded in an LLC queue that its own CPUs stopped
 * serving: a lost kick, or the last CPU of an LLC caught half-way offline (seen
 * once on 6.16: an idle CPU beside a full queue for 11 s, until the watchdog).
 * Busy CPUs never steal, so nothing else would reach such a queue.
 *
 * Every dispatch stamps its LLC (served_ns). Each tick, a busy CPU looks at one
 * other LLC, in turn; a queue with tasks that no CPU of its LLC has dispatched
 * from for stranded_after_ns() is pulled a batch at the CPU's next dispatch. So
 * a stranded task waits about that bound plus a round of the scan and a slice,
 * far below the watchdog. Cost: a read of one LLC's counters per tick.
 */
#ifndef FUZZ_STRANDED_BPF_H
#define FUZZ_STRANDED_BPF_H

#include "common.bpf.h"
#include "scx_fuzz.h"
#include "topo.bpf.h"
#include "target.bpf.h"
#include "stats.bpf.h"
#include "steal.bpf.h"

struct stranded_scan {
	u32 next_llc;	/* the LLC the next tick looks at */
	u32 rescue;	/* 1 + the stranded LLC the next dispatch pulls from; 0: none */
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__type(key, u32);
	__type(value, struct stranded_scan);
	__uint(max_entries, 1);
} stranded_scans SEC(".maps");

static __always_inline struct stranded_scan *stranded_scan(void)
{
	u32 zero = 0;

	return bpf_map_lookup_elem(&stranded_scans, &zero);
}

/* An LLC serving its queue dispatches at least once a slice: a few of the longest slices. */
static __always_inline u64 stranded_after_ns(void)
{
	u64 slice = slice_ns > knobs.slice_max_ns ? slice_ns : knobs.slice_max_ns;

	return 4 * slice > FUZZ_STRANDED_MIN_NS ? 4 * slice : FUZZ_STRANDED_MIN_NS;
}

static __always_inline void note_served(u32 llc, u64 now)
{
	struct llc_ctx *lc = llc_ctx(llc);

	if (lc)
		lc->served_ns = now;
}

/* From ops.tick: look at the next LLC; mark it for rescue if its queue is stranded. */
static void scan_for_stranded(s32 cpu, u64 now)
{
	struct stranded_scan *sc = stranded_scan();
	struct llc_ctx *lc;
	u32 llc;

	if (!sc || sc->rescue || plan.nr_llcs < 2)
		return;
	llc = sc->next_llc < plan.nr_llcs ? sc->next_llc : 0;
	sc->next_llc = llc + 1;
	if (llc == cpu_llc(cpu) || scx_bpf_dsq_nr_queued(llc_dsq_id(llc)) <= 0)
		return;
	lc = llc_ctx(llc);
	if (!lc || !time_before(lc->served_ns + stranded_after_ns(), now))
		return;
	sc->rescue = llc + 1;	/* at this CPU's next dispatch: within its current slice */
	kick_idle_in(llc_cpumask(llc));	/* for what only its CPUs may run, if one just slept through */
}

/* From ops.dispatch: take the LLC the scan marked, if any; the number of tasks moved. */
static u32 rescue_stranded(s32 cpu, u32 own_llc)
{
	struct stranded_scan *sc = stranded_scan();
	u32 llc;

	if (!sc || !sc->rescue)
		return 0;
	llc = sc->rescue - 1;
	sc->rescue = 0;
	return steal_from(bounded(llc, FUZZ_MAX_LLCS), cpu, own_llc);
}

#endif /* FUZZ_STRANDED_BPF_H */
