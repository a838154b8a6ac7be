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

#include "campaign.h"


const char *run_result_name(enum run_result r)
{
	static const char *const names[] = {
		[RUN_PASS] = "pass", [RUN_FAIL] = "fail", [RUN_SIGNAL] = "signal", [RUN_HANG] = "hang",
		[RUN_MATCH] = "fail-on", [RUN_ERRCMD] = "error-command", [RUN_INTERRUPTED] = "interrupted",
		[RUN_NOT_STARTED] = "not-started",
	};
	return names[r];
}

/* "exit status 1", "killed by SIGSEGV", "hang: ...": what happened, in words. */
static void describe(const struct campaign *c, const struct run *r, char *buf, size_t len)
{
	switch (r->result) {
	case RUN_PASS:
		if (r->cut)
			snprintf(buf, len, "pass (ended after --iteration-time %g s)", c->o->iteration_s);
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
			 c->o->timeout_s);
		break;
	case RUN_MATCH:
		snprintf(buf, len, "FAIL: output matched --fail-on: %.120s", c->out.matched_line);
		break;
	case RUN_ERRCMD:
		snprintf(buf, len, "FAIL: --error-command succeeded: %.120s (its processes were killed)",
			 c->o->error_cmd);
		break;
	case RUN_INTERRUPTED:
		snprintf(buf, len, "interrupted (exit status %d)", r->status);
		break;
	case RUN_NOT_STARTED:
		snprintf(buf, len, "not started (exit status %d)", r->status);
		break;
	}
}

void report_run_line(const struct campaign *c, const struct run *r)
{
	char what[256];

	describe(c, r, what, sizeof(what));
	fprintf(stderr, "%sscx_fuzz: run %lu seed %llu: %s in %.2f s\n",
		c->o->stats_interval_s && isatty(2) ? "\r\033[K" : "", r->n,
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
static void print_points(const struct campaign *c, const struct run *r)
{
	char name[512];

	if (!c->points)
		return;
	fprintf(stderr, "scx_fuzz: points: %zu placed, %llu hit, %llu acted on (%.1f %% of hits)%s\n",
		r->points_placed, (unsigned long long)r->counters[FUZZ_STAT_POINT_HITS],
		(unsigned long long)r->counters[FUZZ_STAT_POINT_ACTS], r->point_ppm / 1e4,
		r->nr_acts ? "; the last, oldest first:" : "");
	for (size_t i = 0; i < r->nr_acts; i++) {
		points_name(c->points, r->acts[i].point, name, sizeof(name));
		fprintf(stderr, "scx_fuzz:   preempted thread %u at %s\n", r->acts[i].tid, name);
	}
}

void report_failure(struct campaign *c, const struct run *r)
{
	char what[256], repro[8192];

	describe(c, r, what, sizeof(what));
	format_repro(c->o->argc, c->o->argv, r->seed, r->pct_steps, repro, sizeof(repro));
	if (is_campaign(c->o))
		fprintf(stderr, "scx_fuzz: run %lu failed after %.2f s with seed %llu: %s\n", r->n,
			r->duration_s, (unsigned long long)r->seed, what);
	else
		fprintf(stderr, "scx_fuzz: the command failed after %.2f s with seed %llu: %s\n",
			r->duration_s, (unsigned long long)r->seed, what);
	if (c->out.tail_n) {
		fprintf(stderr, "scx_fuzz: the last lines of its output:\n");
		capture_print_tail(&c->out, stderr, "scx_fuzz:   | ");
	}
	print_counters(stderr, r->counters);
	print_points(c, r);
	fprintf(stderr, "scx_fuzz: reproduce with: %s\n", repro);
}

void report_trace(struct campaign *c, const struct run *r)
{
	char repro[8192];
	int err;

	format_repro(c->o->argc, c->o->argv, r->seed, r->pct_steps, repro, sizeof(repro));
	err = trace_write(&c->trace, c->o->trace_path, r->seed, repro);
	if (err)
		fprintf(stderr, "scx_fuzz: cannot write the trace to %s: %s\n", c->o->trace_path,
			strerror(-err));
	else
		fprintf(stderr, "scx_fuzz: trace of run %lu (%zu events%s) in %s: open it in "
			"https://ui.perfetto.dev\n", r->n, c->trace.n,
			c->trace.dropped || r->counters[FUZZ_STAT_TRACE_LOST] ? ", some lost" : "",
			c->o->trace_path);
}

/* Sum of one counter over the runs so far. */
static uint64_t total(const struct campaign *c, int stat)
{
	uint64_t sum = 0;

	for (unsigned long i = 0; i < c->nr_runs; i++)
		sum += c->runs[i].counters[stat];
	return sum;
}

/* The live line: rewritten in place on a terminal, one line per interval otherwise. */
void report_status(const struct campaign *c, bool final)
{
	double t = c->elapsed_s > 0 ? c->elapsed_s : 1e-9;
	bool tty = isatty(2);

	fprintf(stderr, "%sscx_fuzz: %.0f s: %lu runs, %lu failures, %.1f delays/s, %.1f migrations/s%s",
		tty ? "\r\033[K" : "", c->elapsed_s, c->nr_runs, c->failures,
		total(c, FUZZ_STAT_DELAYED) / t,
		(total(c, FUZZ_STAT_MIGRATE_LLC) + total(c, FUZZ_STAT_MIGRATE_NODE)) / t,
		tty && !final ? "" : "\n");
	fflush(stderr);
}

void report_summary(const struct campaign *c)
{
	static const char *const why[] = {
		[STOP_DONE] = "all runs done", [STOP_FAILURE] = "stopped at the first failure",
		[STOP_SUCCESS] = "stopped at the first success", [STOP_SIGNAL] = "interrupted",
		[STOP_EJECTED] = "the scheduler was ejected", [STOP_ERROR] = "error",
	};

	fprintf(stderr, "scx_fuzz: campaign: %lu runs, %lu failed, %.1f s (%s); campaign seed %llu\n",
		c->nr_runs, c->failures, c->elapsed_s, why[c->stop], (unsigned long long)c->seed);
}
