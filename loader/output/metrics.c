/* SPDX-License-Identifier: GPL-2.0 */
/*
 * serve's metrics in the Prometheus text format: every scheduler counter as
 * scx_fuzz_<name>_total, and the budget used (delay_share: injected delay
 * per target run time), the back-off state, attachment and ejections.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "scx_fuzz.h"
#include "json.h"
#include "metrics.h"
#include "stats.h"

/* A label value with \, " and newline escaped, as the format asks. */
static void put_label(FILE *f, const char *v)
{
	for (; *v; v++) {
		if (*v == '\\' || *v == '"')
			fputc('\\', f);
		if (*v == '\n')
			fputs("\\n", f);
		else
			fputc(*v, f);
	}
}

static void put_metric(FILE *f, const char *name, const char *type, const char *help,
		       const char *target, double v)
{
	fprintf(f, "# HELP scx_fuzz_%s %s\n# TYPE scx_fuzz_%s %s\nscx_fuzz_%s{target=\"", name, help,
		name, type, name);
	put_label(f, target);
	fprintf(f, "\"} %.17g\n", v);
}

static double delay_share(const uint64_t *s)
{
	return s[FUZZ_STAT_TARGET_RUN_NS] ? (double)s[FUZZ_STAT_DELAY_NS] / s[FUZZ_STAT_TARGET_RUN_NS] : 0;
}

static void put_all(FILE *f, const struct metrics *m)
{
	const uint64_t *s = m->sums;
	char name[64];

	put_metric(f, "attached", "gauge", "1 while the scheduler is attached", m->target, m->attached);
	put_metric(f, "ejections_total", "counter", "times the kernel ejected the scheduler",
		   m->target, m->ejections);
	put_metric(f, "flight_records_total", "counter", "flight records written", m->target,
		   m->flight_records);
	put_metric(f, "unfuzzed_ratio", "gauge", "share of target events left unfuzzed by back-off",
		   m->target, m->unfuzzed_ratio);
	put_metric(f, "cpu_pressure", "gauge", "CPU pressure back-off acts on (PSI some avg10, percent)",
		   m->target, m->cpu_pressure);
	put_metric(f, "delay_share", "gauge", "injected delay per target run time (the budget used)",
		   m->target, delay_share(s));
	for (int i = 0; i < FUZZ_NR_STATS; i++) {
		snprintf(name, sizeof(name), "%s_total", fuzz_stat_names[i]);
		put_metric(f, name, "counter", "scheduler counter (docs/usage.md)", m->target, s[i]);
	}
}

/* The same figures as one JSON object, the counters by their --stats names. */
static int put_all_json(FILE *f, const struct metrics *m)
{
	struct json_object *o = json_object_new_object(), *counters = json_object_new_object();
	int err;

	json_object_object_add(o, "target", json_text(m->target, (size_t)-1));
	json_object_object_add(o, "attached", json_object_new_boolean(m->attached));
	json_object_object_add(o, "ejections", json_object_new_int64(m->ejections));
	json_object_object_add(o, "flight_records", json_object_new_int64(m->flight_records));
	json_object_object_add(o, "unfuzzed_ratio", json_number("%g", m->unfuzzed_ratio));
	json_object_object_add(o, "cpu_pressure", json_number("%g", m->cpu_pressure));
	json_object_object_add(o, "delay_share", json_number("%.6g", delay_share(m->sums)));
	for (int i = 0; i < FUZZ_NR_STATS; i++)
		json_object_object_add(counters, fuzz_stat_names[i], json_object_new_uint64(m->sums[i]));
	json_object_object_add(o, "counters", counters);
	err = json_write(o, f);
	fputc('\n', f);
	json_object_put(o);
	return err;
}

int metrics_write(const char *path, const struct metrics *m, bool as_json)
{
	size_t len = strlen(path) + 5;
	char *tmp = malloc(len);
	FILE *f;
	int err = 0;

	if (!tmp)
		return -ENOMEM;
	snprintf(tmp, len, "%s.tmp", path);
	if (!(f = fopen(tmp, "w"))) {
		err = -errno;
		goto out;
	}
	if (as_json)
		err = put_all_json(f, m);
	else
		put_all(f, m);
	if (fclose(f) || err || rename(tmp, path)) {
		err = err ? err : -errno;
		unlink(tmp);
	}
out:
	free(tmp);
	return err;
}
