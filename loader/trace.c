/* SPDX-License-Identifier: GPL-2.0 */
/*
 * --trace: the scheduler's decisions for target threads, read from the BPF
 * ring buffer during a run and written, for the failing run, as Chrome /
 * Perfetto trace-event JSON (open it in ui.perfetto.dev or chrome://tracing):
 * one track per thread with its runs on CPUs, the delays it was held for,
 * its releases and its forced migrations.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "points.h"
#include "trace.h"

#define TRACE_MAX_EVENTS (2u << 20)	/* ~100 MB; the rest of a run is counted as dropped */
#define OPEN_RUNS 65536			/* tids with an unfinished run, hashed */

void trace_reset(struct trace *t)
{
	t->n = 0;
	t->dropped = 0;
}

int trace_add(struct trace *t, const struct fuzz_trace_event *ev)
{
	struct fuzz_trace_event *grown;

	if (t->n == t->cap) {
		if (t->cap >= TRACE_MAX_EVENTS) {
			t->dropped++;
			return 0;
		}
		grown = realloc(t->ev, (t->cap ? 2 * t->cap : 4096) * sizeof(*grown));
		if (!grown) {
			t->dropped++;
			return 0;
		}
		t->ev = grown;
		t->cap = t->cap ? 2 * t->cap : 4096;
	}
	t->ev[t->n++] = *ev;
	return 0;
}

void trace_free(struct trace *t)
{
	free(t->ev);
	memset(t, 0, sizeof(*t));
}

static double us(__u64 ns, __u64 t0)
{
	return (ns - t0) / 1000.0;
}

static void head(FILE *f, const char *name, const char *ph, const struct fuzz_trace_event *e,
		 __u64 ts, __u64 t0, bool *first)
{
	fprintf(f, "%s\n{\"name\":\"%s\",\"cat\":\"scx_fuzz\",\"ph\":\"%s\",\"ts\":%.3f,\"pid\":%u,\"tid\":%u",
		*first ? "" : ",", name, ph, us(ts, t0), e->tgid, e->tid);
	*first = false;
}

/* One event as JSON; a STOP closes the RUN of the same thread as a complete ("X") event. */
static void write_event(FILE *f, const struct trace *t, const struct fuzz_trace_event *e,
			struct fuzz_trace_event *open, __u64 t0, bool *first)
{
	char name[512];

	struct fuzz_trace_event *run = &open[e->tid % OPEN_RUNS];

	switch (e->kind) {
	case FUZZ_EV_RUN:
		*run = *e;
		return;
	case FUZZ_EV_STOP:
		if (run->tid != e->tid || run->kind != FUZZ_EV_RUN)
			return;
		head(f, "run", "X", run, run->ts_ns, t0, first);
		fprintf(f, ",\"dur\":%.3f,\"args\":{\"cpu\":%u,\"slice_us\":%.1f}}",
			us(e->ts_ns, run->ts_ns), run->cpu, run->value / 1000.0);
		run->kind = FUZZ_EV_STOP;
		return;
	case FUZZ_EV_DELAY:
		head(f, "delayed", "X", e, e->ts_ns, t0, first);
		fprintf(f, ",\"dur\":%.3f,\"args\":{\"delay_us\":%.1f}}", e->value / 1000.0, e->value / 1000.0);
		return;
	case FUZZ_EV_RELEASE:
		head(f, "released", "i", e, e->ts_ns, t0, first);
		fprintf(f, ",\"s\":\"t\",\"args\":{\"late_us\":%.1f,\"cpu\":%u}}", e->value / 1000.0, e->cpu);
		return;
	case FUZZ_EV_MIGRATE_LLC:
	case FUZZ_EV_MIGRATE_NODE:
		head(f, e->kind == FUZZ_EV_MIGRATE_NODE ? "migrated (far node)" : "migrated (other LLC)",
		     "i", e, e->ts_ns, t0, first);
		fprintf(f, ",\"s\":\"t\",\"args\":{\"from_cpu\":%u,\"to_cpu\":%llu}}", e->cpu,
			(unsigned long long)e->value);
		return;
	case FUZZ_EV_PREEMPT:
		head(f, "preempted", "i", e, e->ts_ns, t0, first);
		fprintf(f, ",\"s\":\"t\",\"args\":{\"ran_us\":%.1f,\"cpu\":%u}}", e->value / 1000.0, e->cpu);
		return;
	case FUZZ_EV_PCT_CHANGE:
		head(f, "priority dropped (pct)", "i", e, e->ts_ns, t0, first);
		fprintf(f, ",\"s\":\"t\",\"args\":{\"priority\":%llu,\"cpu\":%u}}",
			(unsigned long long)e->value, e->cpu);
		return;
	case FUZZ_EV_PREEMPT_WAKE:
	case FUZZ_EV_PREEMPT_CREATE:
		head(f, e->kind == FUZZ_EV_PREEMPT_WAKE ? "preempted after a wake-up" :
		     "preempted after a creation", "i", e, e->ts_ns, t0, first);
		fprintf(f, ",\"s\":\"t\",\"args\":{\"%s\":%llu,\"cpu\":%u}}",
			e->kind == FUZZ_EV_PREEMPT_WAKE ? "woke_tid" : "created_tid",
			(unsigned long long)e->value, e->cpu);
		return;
	case FUZZ_EV_POINT:
		head(f, "preempted at a point", "i", e, e->ts_ns, t0, first);
		if (t->points)
			points_name(t->points, e->value, name, sizeof(name));
		else
			snprintf(name, sizeof(name), "point %llu", (unsigned long long)e->value);
		fprintf(f, ",\"s\":\"t\",\"args\":{\"point\":\"");
		json_chars(f, name, sizeof(name));
		fprintf(f, "\",\"cpu\":%u}}", e->cpu);
		return;
	case FUZZ_EV_HANDOVER:
		head(f, "turn (serialized)", "i", e, e->ts_ns, t0, first);
		fprintf(f, ",\"s\":\"t\",\"args\":{\"waited_us\":%.1f,\"cpu\":%u}}", e->value / 1000.0, e->cpu);
		return;
	}
}

/* Thread names, once per thread, as metadata events. */
static void write_names(FILE *f, const struct trace *t, bool *first)
{
	static __u32 named[OPEN_RUNS];

	memset(named, 0, sizeof(named));
	for (size_t i = 0; i < t->n; i++) {
		const struct fuzz_trace_event *e = &t->ev[i];

		if (named[e->tid % OPEN_RUNS] == e->tid + 1)
			continue;
		named[e->tid % OPEN_RUNS] = e->tid + 1;
		fprintf(f, "%s\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":%u,\"tid\":%u,"
			"\"args\":{\"name\":\"", *first ? "" : ",", e->tgid, e->tid);
		json_chars(f, e->comm, sizeof(e->comm));
		fprintf(f, " (%u)\"}}", e->tid);
		*first = false;
	}
}

int trace_write(const struct trace *t, const char *path, __u64 seed, const char *repro)
{
	struct fuzz_trace_event *open = calloc(OPEN_RUNS, sizeof(*open));
	FILE *f = fopen(path, "w");
	__u64 t0 = t->n ? t->ev[0].ts_ns : 0;
	bool first = true;
	int err = 0;

	if (!f || !open) {
		err = -errno;
		goto out;
	}
	fprintf(f, "{\"displayTimeUnit\":\"ms\",\"otherData\":{\"tool\":\"scx_fuzz\",\"seed\":\"%llu\","
		"\"dropped_events\":%zu,\"reproduce\":\"", (unsigned long long)seed, t->dropped);
	json_chars(f, repro, 4096);
	fprintf(f, "\"},\"traceEvents\":[");
	write_names(f, t, &first);
	for (size_t i = 0; i < t->n; i++)
		write_event(f, t, &t->ev[i], open, t0, &first);
	fprintf(f, "\n]}\n");
	if (ferror(f))
		err = -EIO;
out:
	if (f && fclose(f) && !err)
		err = -errno;
	free(open);
	return err;
}
