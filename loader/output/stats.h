/* SPDX-License-Identifier: GPL-2.0 */
/* stats.c: counter names, and one line of summed counters with the ratios that matter. */
#ifndef FUZZ_STATS_H
#define FUZZ_STATS_H

#include <stdint.h>
#include <stdio.h>

#include "scx_fuzz.h"

extern const char *const fuzz_stat_names[FUZZ_NR_STATS];
void stats_print(FILE *out, const uint64_t *sums);
#endif /* FUZZ_STATS_H */
