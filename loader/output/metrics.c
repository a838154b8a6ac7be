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

#include "scx_fuzz.h"
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
		   m->target, s[FUZZ_STAT_TARGET_RUN_NS] ?
		   (double)s[FUZZ_STAT_DELAY_NS] / s[FUZZ_STAT_TARGET_RUN_NS] : 0);
	for (int i = 0; i < FUZZ_NR_STATS; i++) {
		snprintf(name, sizeof(name), "%s_total", fuzz_stat_names[i]);
		put_metric(f, name, "counter", "scheduler counter (docs/usage.md)", m->target, s[i]);
	}
}

int metrics_write(const char *path, const struct metrics *m)
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
	put_all(f, m);
	if (fclose(f) || rename(tmp, path)) {
		err = -errno;
		unlink(tmp);
	}
out:
	free(tmp);
	return err;
}
