/* SPDX-License-Identifier: GPL-2.0 */
/* The scheduler's counters as one line, with the ratios that show scalability. */
#include <stdio.h>

#include "fuzz.h"
#include "scx_fuzz.h"
#include "stats.h"

const char *const fuzz_stat_names[FUZZ_NR_STATS] = {
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
	[FUZZ_STAT_RESCUED] = "rescued",
	[FUZZ_STAT_TARGET_ENQ] = "target_enq",
	[FUZZ_STAT_DELAYED] = "delayed",
	[FUZZ_STAT_DELAY_NS] = "delay_ns",
	[FUZZ_STAT_RELEASED] = "released",
	[FUZZ_STAT_LATE_NS] = "late_ns",
	[FUZZ_STAT_THROTTLED] = "throttled",
	[FUZZ_STAT_MIGRATE_LLC] = "migrate_llc",
	[FUZZ_STAT_MIGRATE_NODE] = "migrate_node",
	[FUZZ_STAT_TARGET_RUN_NS] = "target_run_ns",
	[FUZZ_STAT_TARGET_RUNS] = "target_runs",
	[FUZZ_STAT_TARGET_NODE_MOVES] = "target_node_moves",
	[FUZZ_STAT_OTHER_RUNS] = "other_runs",
	[FUZZ_STAT_OTHER_NODE_MOVES] = "other_node_moves",
	[FUZZ_STAT_TRACE_LOST] = "trace_lost",
	[FUZZ_STAT_PREEMPTED] = "preempted",
	[FUZZ_STAT_HANDOVERS] = "handovers",
	[FUZZ_STAT_UNSERIALIZED] = "unserialized",
	[FUZZ_STAT_UNASKED_RUNS] = "unasked_runs",
	[FUZZ_STAT_PCT_CHANGES] = "pct_changes",
	[FUZZ_STAT_TIMER_FAILS] = "timer_fails",
	[FUZZ_STAT_PCT_STEPS] = "pct_steps",
	[FUZZ_STAT_PREEMPT_WAKE] = "preempt_wake",
	[FUZZ_STAT_PREEMPT_CREATE] = "preempt_create",
	[FUZZ_STAT_BURST_TIMERS] = "burst_timers",
	[FUZZ_STAT_POINT_HITS] = "point_hits",
	[FUZZ_STAT_POINT_ACTS] = "point_acts",
	[FUZZ_STAT_TURN_KICKS] = "turn_kicks",
	[FUZZ_STAT_BACKED_OFF] = "backed_off",
	[FUZZ_STAT_IMAGE_WAITS] = "image_waits",
	[FUZZ_STAT_IMAGE_TIMEOUTS] = "image_timeouts",
	[FUZZ_STAT_IMAGE_WAIT_NS] = "image_wait_ns",
};

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * part / whole : 0.0;
}

void stats_print(FILE *out, const uint64_t *sums)
{
	uint64_t steals = sums[FUZZ_STAT_STEAL_NODE] + sums[FUZZ_STAT_STEAL_REMOTE];
	uint64_t local = sums[FUZZ_STAT_DIRECT] + sums[FUZZ_STAT_LLC];
	uint64_t all = local + steals + sums[FUZZ_STAT_GLOBAL];

	fprintf(out, "scx_fuzz: stats:");
	for (int i = 0; i < FUZZ_NR_STATS; i++)
		fprintf(out, " %s=%llu", fuzz_stat_names[i], (unsigned long long)sums[i]);
	/* local_pct: dispatches served without leaving the LLC; per_steal: batch efficiency */
	fprintf(out, " local_pct=%.1f per_steal=%.2f", all ? 100.0 * local / all : 0.0,
		steals ? (double)sums[FUZZ_STAT_STOLEN] / steals : 0.0);
	/* how often a run started on another node than the last, targets vs the rest; share of run
	 * time spent held (drawn delay + release lateness) */
	fprintf(out, " target_node_pct=%.2f other_node_pct=%.2f delay_pct=%.3f\n",
		pct(sums[FUZZ_STAT_TARGET_NODE_MOVES], sums[FUZZ_STAT_TARGET_RUNS]),
		pct(sums[FUZZ_STAT_OTHER_NODE_MOVES], sums[FUZZ_STAT_OTHER_RUNS]),
		pct(sums[FUZZ_STAT_DELAY_NS] + sums[FUZZ_STAT_LATE_NS], sums[FUZZ_STAT_TARGET_RUN_NS]));
	fflush(out);
}
