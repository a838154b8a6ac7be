/* SPDX-License-Identifier: GPL-2.0 */
/* repro.c: per-run seeds and the line that repeats a run. */
#ifndef FUZZ_REPRO_H
#define FUZZ_REPRO_H

#include <stddef.h>
#include <stdint.h>
#include <linux/types.h>

__u64 run_seed_of(__u64 campaign_seed, unsigned long run);
void format_repro(int argc, char **argv, __u64 seed, uint64_t pct_steps, const __u64 *point_seed, char *buf,
		  size_t len);
#endif /* FUZZ_REPRO_H */
