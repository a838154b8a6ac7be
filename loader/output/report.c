/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the runner tells people and CI systems: one line per run, a live
 * status line, the failure report with the line that repeats the run, the
 * failing run's trace, and the campaign as JSON.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "pointname.h"
#include "report.h"
#include "repro.h"


/* "exit status 1", "killed by SIGSEGV", "hang: ...": what happened, in words. */
static void describe(const struct campaign_result *res, const struct run *r, const struct output_tail *tail,
		     char *buf, size_t len)
{
	switch (r->result) {
	case RUN_PASS:
		if (r->cut)
			snprintf(buf, len, "pass (ended after --iteration-time %g s)", res->o->iteration_s);
		else
			snprintf(buf, len, "pass");
		break;
	case RUN_FAIL:
		snprintf(buf, len, "FAIL: exit status %d", r->status);
		break;
	case RUN_SIGNAL:
		snprintf(buf, len, "FAIL: killed by SIG%s", sigabbrev_np(r->status - 128) ?: "?");
		break;
	case RUN_HANG:
		snprintf(buf, len, "HANG: still running after --timeout %g s (its processes were killed)",
			 res->o->timeout_s);
		break;
	case RUN_MATCH:
		snprintf(buf, len, "FAIL: output matched --fail-on: %.120s", tail->matched_line ?: "?");
		break;
	case RUN_ERRCMD:
		snprintf(buf, len, "FAIL: --error-command succeeded: %.120s (its processes were killed)",
			 res->o->error_cmd);
		break;
	case RUN_INTERRUPTED:
		snprintf(buf, len, "interrupted (exit status %d)", r->status);
		break;
	case RUN_NOT_STARTED:
		snprintf(buf, len, "not started (exit status %d)", r->status);
		break;
	}
}

void report_run_line(const struct campaign_result *res, const struct run *r,
		     const struct output_tail *tail)
{
	char what[256];

	describe(res, r, tail, what, sizeof(what));
	fprintf(stderr, "%sscx_fuzz: run %lu seed %llu: %s in %.2f s\n",
		res->o->stats_interval_s && isatty(2) ? "\r\033[K" : "", r->n,
		(unsigned long long)r->seed, what, r->duration_s);
}

static void print_counters(FILE *out, const uint64_t *v)
{
	fprintf(out, "scx_fuzz: its counters: delayed=%llu (%.1f ms in all, %llu skipped by the budget) "
		"preempted: after a wake-up %llu, after a creation %llu, by a timer %llu; "
		"migrate_llc=%llu migrate_node=%llu target_runs=%llu\n",
		(unsigned long long)v[FUZZ_STAT_DELAYED], v[FUZZ_STAT_DELAY_NS] / 1e6,
		(unsigned long long)v[FUZZ_STAT_THROTTLED], (unsigned long long)v[FUZZ_STAT_PREEMPT_WAKE],
		(unsigned long long)v[FUZZ_STAT_PREEMPT_CREATE], (unsigned long long)v[FUZZ_STAT_PREEMPTED],
		(unsigned long long)v[FUZZ_STAT_MIGRATE_LLC],
		(unsigned long long)v[FUZZ_STAT_MIGRATE_NODE], (unsigned long long)v[FUZZ_STAT_TARGET_RUNS]);
}

/* --points: where the failing run was last preempted, newest last: the interleaving forced. */
static void print_points(const struct campaign_result *res, const struct run *r)
{
	char name[512];

	if (!res->points)
		return;
	fprintf(stderr, "scx_fuzz: points: %zu placed, %llu hit, %llu acted on (%.1f %% of hits)%s\n",
		r->points_placed, (unsigned long long)r->counters[FUZZ_STAT_POINT_HITS],
		(unsigned long long)r->counters[FUZZ_STAT_POINT_ACTS], r->point_ppm / 1e4,
		r->nr_acts ? "; the last, oldest first:" : "");
	for (size_t i = 0; i < r->nr_acts; i++) {
		points_name(res->points, r->acts[i].point, name, sizeof(name));
		fprintf(stderr, "scx_fuzz:   preempted thread %u at %s\n", r->acts[i].tid, name);
	}
}

void report_failure(const struct campaign_result *res, const struct run *r,
		    const struct output_tail *tail)
{
	char what[256], repro[8192];

	describe(res, r, tail, what, sizeof(what));
	format_repro(res->o->argc, res->o->argv, r->seed, r->pct_steps, res->points ? &res->point_seed : NULL,
		     repro, sizeof(repro));
	if (is_campaign(res->o))
		fprintf(stderr, "scx_fuzz: run %lu failed after %.2f s with seed %llu: %s\n", r->n,
			r->duration_s, (unsigned long long)r->seed, what);
	else
		fprintf(stderr, "scx_fuzz: the command failed after %.2f s with seed %llu: %s\n",
			r->duration_s, (unsigned long long)r->seed, what);
	if (tail->n)
		fprintf(stderr, "scx_fuzz: the last lines of its output:\n");
	for (unsigned i = 0; i < tail->n; i++)
		fprintf(stderr, "scx_fuzz:   | %s\n", tail->lines[i]);
	print_counters(stderr, r->counters);
	print_points(res, r);
	fprintf(stderr, "scx_fuzz: reproduce with: %s\n", repro);
}

void report_trace(const struct campaign_result *res, const struct run *r, const struct trace *t)
{
	char repro[8192];
	int err;

	format_repro(res->o->argc, res->o->argv, r->seed, r->pct_steps, res->points ? &res->point_seed : NULL,
		     repro, sizeof(repro));
	err = trace_write(t, res->o->trace_path, r->seed, repro);
	if (err)
		fprintf(stderr, "scx_fuzz: cannot write the trace to %s: %s\n", res->o->trace_path,
			strerror(-err));
	else
		fprintf(stderr, "scx_fuzz: trace of run %lu (%zu events%s) in %s: open it in "
			"https://ui.perfetto.dev\n", r->n, t->n,
			t->dropped || r->counters[FUZZ_STAT_TRACE_LOST] ? ", some lost" : "",
			res->o->trace_path);
}

/* Sum of one counter over the runs so far. */
static uint64_t total(const struct campaign_result *res, int stat)
{
	uint64_t sum = 0;

	for (unsigned long i = 0; i < res->nr_runs; i++)
		sum += res->runs[i].counters[stat];
	return sum;
}

/* The live line: rewritten in place on a terminal, one line per interval otherwise. */
void report_status(const struct campaign_result *res, bool final)
{
	double t = res->elapsed_s > 0 ? res->elapsed_s : 1e-9;
	bool tty = isatty(2);

	fprintf(stderr, "%sscx_fuzz: %.0f s: %lu runs, %lu failures, %.1f delays/s, %.1f migrations/s%s",
		tty ? "\r\033[K" : "", res->elapsed_s, res->nr_runs, res->failures,
		total(res, FUZZ_STAT_DELAYED) / t,
		(total(res, FUZZ_STAT_MIGRATE_LLC) + total(res, FUZZ_STAT_MIGRATE_NODE)) / t,
		tty && !final ? "" : "\n");
	fflush(stderr);
}

void report_summary(const struct campaign_result *res)
{
	static const char *const why[] = {
		[STOP_DONE] = "all runs done", [STOP_FAILURE] = "stopped at the first failure",
		[STOP_SUCCESS] = "stopped at the first success", [STOP_SIGNAL] = "interrupted",
		[STOP_EJECTED] = "the scheduler was ejected", [STOP_ERROR] = "error",
	};

	fprintf(stderr, "scx_fuzz: campaign: %lu runs, %lu failed, %.1f s (%s); campaign seed %llu\n",
		res->nr_runs, res->failures, res->elapsed_s, why[res->stop], (unsigned long long)res->seed);
}
