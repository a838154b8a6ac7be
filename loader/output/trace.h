/* SPDX-License-Identifier: GPL-2.0 */
/* --trace: one run's target events, and their trace-event JSON (trace.c). */
#ifndef FUZZ_TRACE_H
#define FUZZ_TRACE_H

#include <stdbool.h>
#include <stddef.h>

#include "scx_fuzz.h"

struct point_set;

struct trace {
	struct fuzz_trace_event *ev;
	size_t n, cap;
	size_t dropped;		/* beyond what we keep in memory */
	size_t keep;		/* a flight recorder: only the last `keep` events; 0: all */
	const struct point_set *points;	/* --points: names the points in the events */
};

void trace_reset(struct trace *t);
int trace_add(struct trace *t, const struct fuzz_trace_event *ev);
int trace_write(const struct trace *t, const char *path, __u64 seed, const char *repro);
void trace_free(struct trace *t);

#endif /* FUZZ_TRACE_H */
