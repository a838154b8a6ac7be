/* SPDX-License-Identifier: GPL-2.0 */
/* The scheduler's counters as one line, with the ratios that show scalability. */
#include <stdio.h>

#include "fuzz.h"
#include "scx_fuzz.h"

static const char *const stat_names[FUZZ_NR_STATS] = {
	[FUZZ_STAT_ENQUEUE] = "enqueue",
	[FUZZ_STAT_DIRECT] = "direct",
	[FUZZ_STAT_LLC] = "llc",
	[FUZZ_STAT_STEAL_NODE] = "steal_node",
	[FUZZ_STAT_STEAL_REMOTE] = "steal_remote",
	[FUZZ_STAT_STOLEN] = "stolen",
	[FUZZ_STAT_KICK] = "kick",
	[FUZZ_STAT_EMPTY] = "empty",
	[FUZZ_STAT_GLOBAL] = "global",
	[FUZZ_STAT_HOTPLUG] = "hotplug",
};

void stats_print(FILE *out, const uint64_t *sums)
{
	uint64_t steals = sums[FUZZ_STAT_STEAL_NODE] + sums[FUZZ_STAT_STEAL_REMOTE];
	uint64_t local = sums[FUZZ_STAT_DIRECT] + sums[FUZZ_STAT_LLC];
	uint64_t all = local + steals + sums[FUZZ_STAT_GLOBAL];

	fprintf(out, "scx_fuzz: stats:");
	for (int i = 0; i < FUZZ_NR_STATS; i++)
		fprintf(out, " %s=%llu", stat_names[i], (unsigned long long)sums[i]);
	/* local_pct: dispatches served without leaving the LLC; per_steal: batch efficiency */
	fprintf(out, " local_pct=%.1f per_steal=%.2f\n", all ? 100.0 * local / all : 0.0,
		steals ? (double)sums[FUZZ_STAT_STOLEN] / steals : 0.0);
	fflush(out);
}
