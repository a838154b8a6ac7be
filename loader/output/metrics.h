/* SPDX-License-Identifier: GPL-2.0 */
/* metrics.c: serve's counters as a Prometheus text file (node_exporter's textfile collector) or JSON. */
#ifndef FUZZ_METRICS_H
#define FUZZ_METRICS_H

#include <stdbool.h>
#include <stdint.h>

struct metrics {
	const char *target;		/* the `target` label: the cgroup or comm fuzzed */
	const uint64_t *sums;		/* FUZZ_NR_STATS summed counters */
	bool attached;
	unsigned ejections;		/* times the kernel ejected the scheduler */
	unsigned flight_records;	/* flight records written */
	double unfuzzed_ratio;		/* back-off: 0 fuzzing fully, 1 off */
	double cpu_pressure;		/* the PSI reading back-off acts on, percent */
};

/*
 * Prometheus text, or with `as_json` one JSON object (serve's `json` file), written to
 * PATH.tmp then renamed, so a reader never sees half a file; 0 or -errno.
 */
int metrics_write(const char *path, const struct metrics *m, bool as_json);
#endif /* FUZZ_METRICS_H */
