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

#include <json-c/json.h>

#include "json.h"
#include "pointname.h"
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

	/* a flight recorder keeps the last `keep` (in at most twice that memory) */
	if (t->keep && t->n >= 2 * t->keep) {
		memmove(t->ev, t->ev + t->n - t->keep, t->keep * sizeof(*t->ev));
		t->n = t->keep;
	}
	if (t->n == t->cap) {
		grown = t->cap >= TRACE_MAX_EVENTS ? NULL :
			realloc(t->ev, (t->cap ? 2 * t->cap : 4096) * sizeof(*grown));
		if (!grown && t->keep && t->n > 1) {	/* a flight recorder keeps the newest half */
			memmove(t->ev, t->ev + t->n / 2, (t->n - t->n / 2) * sizeof(*t->ev));
			t->dropped += t->n / 2;
			t->n -= t->n / 2;
		} else if (!grown) {
			t->dropped++;
			return 0;
		} else {
			t->ev = grown;
			t->cap = t->cap ? 2 * t->cap : 4096;
		}
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

/* An event's common fields; `args` filled by the caller. */
static struct json_object *event(const char *name, const char *ph, const struct fuzz_trace_event *e,
				 __u64 ts, __u64 t0, struct json_object **args)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "name", json_object_new_string(name));
	json_object_object_add(o, "cat", json_object_new_string("scx_fuzz"));
	json_object_object_add(o, "ph", json_object_new_string(ph));
	json_object_object_add(o, "ts", json_number("%.3f", us(ts, t0)));
	json_object_object_add(o, "pid", json_object_new_int64(e->tgid));
	json_object_object_add(o, "tid", json_object_new_int64(e->tid));
	if (ph[0] == 'i')
		json_object_object_add(o, "s", json_object_new_string("t"));	/* thread-scoped instant */
	*args = json_object_new_object();
	json_object_object_add(o, "args", *args);
	return o;
}

static void arg(struct json_object *args, const char *key, struct json_object *v)
{
	json_object_object_add(args, key, v);
}

static const char *instant_name(__u32 kind)
{
	switch (kind) {
	case FUZZ_EV_RELEASE: return "released";
	case FUZZ_EV_MIGRATE_LLC: return "migrated (other LLC)";
	case FUZZ_EV_MIGRATE_NODE: return "migrated (far node)";
	case FUZZ_EV_PREEMPT: return "preempted";
	case FUZZ_EV_PCT_CHANGE: return "priority dropped (pct)";
	case FUZZ_EV_PREEMPT_WAKE: return "preempted after a wake-up";
	case FUZZ_EV_PREEMPT_CREATE: return "preempted after a creation";
	case FUZZ_EV_POINT: return "preempted at a point";
	case FUZZ_EV_HANDOVER: return "turn (serialized)";
	case FUZZ_EV_UNSERIALIZED: return "ran out of turn (serialized)";
	case FUZZ_EV_DIED: return "process died";
	}
	return NULL;
}

/* An instant event's arguments. */
static void instant_args(const struct trace *t, const struct fuzz_trace_event *e, struct json_object *a)
{
	char name[512];

	switch (e->kind) {
	case FUZZ_EV_RELEASE:
		arg(a, "late_us", json_number("%.1f", e->value / 1000.0));
		break;
	case FUZZ_EV_MIGRATE_LLC:
	case FUZZ_EV_MIGRATE_NODE:
		arg(a, "from_cpu", json_object_new_int64(e->cpu));
		arg(a, "to_cpu", json_object_new_uint64(e->value));
		return;
	case FUZZ_EV_PREEMPT:
		arg(a, "ran_us", json_number("%.1f", e->value / 1000.0));
		break;
	case FUZZ_EV_PCT_CHANGE:
		arg(a, "priority", json_object_new_uint64(e->value));
		break;
	case FUZZ_EV_PREEMPT_WAKE:
	case FUZZ_EV_PREEMPT_CREATE:
		arg(a, e->kind == FUZZ_EV_PREEMPT_WAKE ? "woke_tid" : "created_tid",
		    json_object_new_uint64(e->value));
		break;
	case FUZZ_EV_POINT:
		if (t->points)
			points_name(t->points, e->value, name, sizeof(name));
		else
			snprintf(name, sizeof(name), "point %llu", (unsigned long long)e->value);
		arg(a, "point", json_text(name, sizeof(name)));
		break;
	case FUZZ_EV_HANDOVER:
		arg(a, "waited_us", json_number("%.1f", e->value / 1000.0));
		break;
	case FUZZ_EV_UNSERIALIZED:
		arg(a, "turn_holder_tid", json_object_new_int64((__u32)e->value));
		arg(a, "holder_running", json_object_new_boolean(!!(e->value & FUZZ_EV_HOLDER_RUNNING)));
		arg(a, "unasked", json_object_new_boolean(!!(e->value & FUZZ_EV_UNASKED)));
		break;
	case FUZZ_EV_DIED:
		if (e->value & 0x7f)
			arg(a, "signal", json_object_new_int64(e->value & 0x7f));
		else
			arg(a, "exit_status", json_object_new_int64(e->value >> 8 & 0xff));
		break;
	}
	arg(a, "cpu", json_object_new_int64(e->cpu));
}

/* One event as JSON, NULL if it makes none: a STOP closes the RUN of its thread as an "X" event. */
static struct json_object *event_json(const struct trace *t, const struct fuzz_trace_event *e,
				      struct fuzz_trace_event *open, __u64 t0)
{
	struct fuzz_trace_event *run = &open[e->tid % OPEN_RUNS];
	struct json_object *o, *a;

	switch (e->kind) {
	case FUZZ_EV_RUN:
		*run = *e;
		return NULL;
	case FUZZ_EV_STOP:
		if (run->tid != e->tid || run->kind != FUZZ_EV_RUN)
			return NULL;
		o = event("run", "X", run, run->ts_ns, t0, &a);
		json_object_object_add(o, "dur", json_number("%.3f", us(e->ts_ns, run->ts_ns)));
		arg(a, "cpu", json_object_new_int64(run->cpu));
		arg(a, "slice_us", json_number("%.1f", run->value / 1000.0));
		run->kind = FUZZ_EV_STOP;
		return o;
	case FUZZ_EV_DELAY:
		o = event("delayed", "X", e, e->ts_ns, t0, &a);
		json_object_object_add(o, "dur", json_number("%.3f", e->value / 1000.0));
		arg(a, "delay_us", json_number("%.1f", e->value / 1000.0));
		return o;
	}
	if (!instant_name(e->kind))
		return NULL;
	o = event(instant_name(e->kind), "i", e, e->ts_ns, t0, &a);
	instant_args(t, e, a);
	return o;
}

/* Each event is written as it is made: a run's millions of events never sit in one tree. */
static int put_event(FILE *f, struct json_object *ev, bool *first)
{
	int err;

	if (!ev)
		return 0;
	err = fputs(*first ? "\n" : ",\n", f) < 0 ? -EIO : json_write(ev, f);
	*first = false;
	json_object_put(ev);
	return err;
}

/* Thread names, once per thread, as metadata events. */
static int write_names(FILE *f, const struct trace *t, bool *first)
{
	static __u32 named[OPEN_RUNS];
	char name[sizeof(t->ev->comm) + 16];
	int err = 0;

	memset(named, 0, sizeof(named));
	for (size_t i = 0; i < t->n && !err; i++) {
		const struct fuzz_trace_event *e = &t->ev[i];
		struct json_object *o, *args;

		if (named[e->tid % OPEN_RUNS] == e->tid + 1)
			continue;
		named[e->tid % OPEN_RUNS] = e->tid + 1;
		snprintf(name, sizeof(name), "%.*s (%u)", (int)sizeof(e->comm), e->comm, e->tid);
		o = json_object_new_object();
		args = json_object_new_object();
		json_object_object_add(o, "name", json_object_new_string("thread_name"));
		json_object_object_add(o, "ph", json_object_new_string("M"));
		json_object_object_add(o, "pid", json_object_new_int64(e->tgid));
		json_object_object_add(o, "tid", json_object_new_int64(e->tid));
		json_object_object_add(args, "name", json_text(name, sizeof(name)));
		json_object_object_add(o, "args", args);
		err = put_event(f, o, first);
	}
	return err;
}

/*
 * The frame, made by json-c with an empty traceEvents (last, so the text
 * after its "[" is only "]}"): split there, the events are written between.
 */
static int frame(__u64 seed, size_t dropped, const char *repro, char **head, const char **tail)
{
	struct json_object *top = json_object_new_object(), *other = json_object_new_object();
	char seed_text[24], *text, *split;

	snprintf(seed_text, sizeof(seed_text), "%llu", (unsigned long long)seed);
	json_object_object_add(top, "displayTimeUnit", json_object_new_string("ms"));
	json_object_object_add(other, "tool", json_object_new_string("scx_fuzz"));
	json_object_object_add(other, "seed", json_object_new_string(seed_text));
	json_object_object_add(other, "dropped_events", json_object_new_uint64(dropped));
	json_object_object_add(other, "reproduce", json_text(repro, 4096));
	json_object_object_add(top, "otherData", other);
	json_object_object_add(top, "traceEvents", json_object_new_array());
	text = strdup(json_object_to_json_string_ext(top, JSON_C_TO_STRING_PLAIN |
						      JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(top);
	/* a quote inside a string is escaped, so this only matches the key itself */
	split = text ? strstr(text, "\"traceEvents\":[]") : NULL;
	if (!split) {
		free(text);
		return -ENOMEM;
	}
	split += strlen("\"traceEvents\":[");
	*tail = "]}";
	*split = '\0';
	*head = text;
	return 0;
}

int trace_write(const struct trace *all, const char *path, __u64 seed, const char *repro)
{
	struct trace last = *all;
	const struct trace *t = &last;
	struct fuzz_trace_event *open = calloc(OPEN_RUNS, sizeof(*open));
	FILE *f = fopen(path, "w");
	__u64 t0;
	const char *tail;
	char *head = NULL;
	bool first = true;
	int err = 0;

	if (last.keep && last.n > last.keep) {
		last.ev += last.n - last.keep;
		last.n = last.keep;
	}
	t0 = t->n ? t->ev[0].ts_ns : 0;
	if (!f || !open) {
		err = -errno;
		goto out;
	}
	if ((err = frame(seed, t->dropped, repro, &head, &tail)))
		goto out;
	fputs(head, f);
	err = write_names(f, t, &first);
	for (size_t i = 0; i < t->n && !err; i++)
		err = put_event(f, event_json(t, &t->ev[i], open, t0), &first);
	fprintf(f, "\n%s\n", tail);
	if (ferror(f) && !err)
		err = -EIO;
out:
	if (f && fclose(f) && !err)
		err = -errno;
	free(head);
	free(open);
	return err;
}
