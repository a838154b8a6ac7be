/* SPDX-License-Identifier: GPL-2.0 */
/* Per-CPU counters (enum fuzz_stat); the loader sums them over CPUs. */
#ifndef FUZZ_STATS_BPF_H
#define FUZZ_STATS_BPF_H

#include "common.bpf.h"
#include "scx_fuzz.h"

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(key_size, sizeof(u32));
	__uint(value_size, sizeof(u64));
	__uint(max_entries, FUZZ_NR_STATS);
} stats SEC(".maps");

static __always_inline void stat_add(u32 idx, u64 n)
{
	u64 *cnt = bpf_map_lookup_elem(&stats, &idx);

	if (cnt)
		*cnt += n;
}

#define stat_inc(idx) stat_add(idx, 1)

#endif /* FUZZ_STATS_BPF_H */
