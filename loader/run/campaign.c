/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The runner: run CMD once, or again and again (--repeat, --until-failure,
 * --until-success), each run with its own seed, while the scheduler stays
 * attached. A run fails when CMD exits non-zero, dies of a signal, outlives
 * --timeout (a hang: its whole tree is killed), or prints a line matching
 * --fail-on. What is left of the tree is killed when the run ends.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>

#include "campaign.h"
#include "errcheck.h"
#include "fuzz_rand.h"
#include "json.h"
#include "report.h"
#include "repro.h"
#include "target.h"
#include "tree.h"

volatile sig_atomic_t fuzz_stop_signal;	/* set by main.c's SIGINT/SIGTERM handler */

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Sleep until output, trace events or a new process of the tree arrive, at most 50 ms. */
static void wait_io(struct campaign *c)
{
	struct pollfd fds[3] = { { .fd = c->out.fd, .events = POLLIN },
				 { .fd = sched_trace_fd(c->s), .events = POLLIN },
				 { .fd = follow_fd(&c->follow), .events = POLLIN } };

	poll(fds, 3, 50);
}

/* While the run goes on: a stop signal is forwarded, an ejection reported once, stats printed. */
static void watch(struct campaign *c, pid_t pid, int *forwarded, double *next_stats)
{
	const struct fuzz_opts *o = c->res.o;

	if (fuzz_stop_signal && fuzz_stop_signal != *forwarded) {
		*forwarded = fuzz_stop_signal;
		kill(pid, *forwarded);	/* CMD decides how to stop */
	}
	if (c->res.stop != STOP_EJECTED && sched_exited(c->s)) {
		c->res.stop = STOP_EJECTED;
		fprintf(stderr, "scx_fuzz: the kernel ejected the scheduler; the target goes on under "
			"the default scheduler\n");
		sched_print_exit(c->s);
	}
	if (o->stats_interval_s && now_s() >= *next_stats) {
		if (is_campaign(o))
			report_status(&c->res, false);
		else
			sched_print_stats(c->s, stderr);
		*next_stats += o->stats_interval_s;
	}
}

static void classify(struct campaign *c, struct run *r, int wstatus, bool timed_out, bool errcmd,
		     int forwarded)
{
	r->status = timed_out || errcmd || r->cut ? -1 : exit_status_of(wstatus);
	if (r->cut && !errcmd)
		r->result = RUN_PASS;
	else if (timed_out)
		r->result = RUN_HANG;
	else if (errcmd)
		r->result = RUN_ERRCMD;
	else if (forwarded)
		r->result = RUN_INTERRUPTED;
	else if (WIFSIGNALED(wstatus))
		r->result = RUN_SIGNAL;
	else if (r->status)
		r->result = RUN_FAIL;
	else if (c->out.matched)
		r->result = RUN_MATCH;
	else
		r->result = RUN_PASS;
}

static void counters_delta(struct campaign *c, struct run *r, const uint64_t *before)
{
	if (sched_read_stats(c->s, r->counters)) {
		/* unreadable: no counts, not 0 - before wrapped around (pct learns steps from them) */
		memset(r->counters, 0, sizeof(r->counters));
		return;
	}
	for (int i = 0; i < FUZZ_NR_STATS; i++)
		r->counters[i] -= before[i];
}

/*
 * --mode pct: how many steps (a target thread taking over from another) a
 * run is expected to take: the --pct-steps given, else the most any earlier
 * run of the campaign took.
 */
static uint64_t pct_expected_steps(const struct campaign *c)
{
	uint64_t most = 0;

	if (c->res.o->pct_steps)
		return c->res.o->pct_steps;
	for (unsigned long i = 0; i + 1 < c->res.nr_runs; i++)
		if (c->res.runs[i].counters[FUZZ_STAT_PCT_STEPS] > most)
			most = c->res.runs[i].counters[FUZZ_STAT_PCT_STEPS];
	return most ? most : FUZZ_PCT_DEFAULT_STEPS;
}

/* --points: the uprobes of the command's own program in the run's process, before it execs. */
static int place_points(struct campaign *c, struct run *r, pid_t pid)
{
	const struct image *own = &c->follow.images.v[0];
	long placed = probes_add(&c->probes, c->s->skel, c->res.points, pid, own->idx, own->n);

	probes_baseline(&c->probes, c->s->skel);
	r->points_placed = placed > 0 ? placed : 0;
	if (placed < 0 && own->n) {
		fprintf(stderr, "scx_fuzz: cannot place any of the %zu points in %s: %s\n", own->n,
			c->res.points->paths[0], strerror((int)-placed));
		return EXIT_SCHED;
	}
	if (c->probes.refused && r->n == 1)
		fprintf(stderr, "scx_fuzz: the kernel refused %zu of the %zu points (%s)\n", c->probes.refused,
			own->n, strerror(c->probes.last_err));
	follow_command(&c->follow, pid, placed > 0);
	r->point_ppm = c->knobs->point_ppm ? c->knobs->point_ppm :
		       fuzz_point_ppm(r->seed, FUZZ_POINT_PPM_MIN, FUZZ_POINT_PPM_MAX);
	sched_point_log_reset(c->s, r->point_ppm);
	return 0;
}

/* Every second: when points are hit more often than --point-rate allows, the hottest go (a
 * shorter run, or a burst within a second, keeps them all). */
#define POINTS_CHECK_S 1.0
static void cool_points(struct campaign *c, double *next)
{
	double now = now_s();
	size_t n;

	if (now < *next)
		return;
	n = probes_drop_hot(&c->probes, c->s->skel, now - *next + POINTS_CHECK_S, c->res.o->point_rate);
	*next = now + POINTS_CHECK_S;
	if (!n)
		return;
	probes_reattach(&c->probes, c->s->skel);
	fprintf(stderr, "scx_fuzz: points hit more than %.0f times a second: the %zu hottest dropped (%zu in all)\n",
		c->res.o->point_rate, n, c->probes.nr_dropped);
}

/* One run of CMD; 0, or an exit status of scx_fuzz's own if the run could not be set up. */
static int run_once(struct campaign *c, struct run *r)
{
	const struct fuzz_opts *o = c->res.o;
	struct target t = { .pid = -1, .gate_fd = -1, .exec_err_fd = -1 };
	uint64_t before[FUZZ_NR_STATS] = { 0 };
	int out_fd = -1, wstatus = 0, forwarded = 0, err, reaped = 0;
	double start, next_stats, next_points;
	bool timed_out = false;
	struct errcheck check;

	sched_set_seed(c->s, r->seed);
	if (o->pct) {
		r->pct_steps = pct_expected_steps(c);
		sched_set_pct(c->s, r->seed, o->pct_depth ? o->pct_depth : 3, r->pct_steps);
	}
	sched_read_stats(c->s, before);
	trace_reset(&c->trace);
	/* a campaign keeps the output for its report; a single run shows it as it comes */
	if ((is_campaign(o) || o->fail_on) &&
	    (err = capture_open(&c->out, o->fail_on, !is_campaign(o), &out_fd))) {
		fprintf(stderr, "scx_fuzz: cannot capture the output: %s\n", strerror(-err));
		return EXIT_SCHED;
	}
	if ((err = target_spawn(&t, o->cmd, out_fd))) {
		fprintf(stderr, "scx_fuzz: cannot start the target: %s\n", strerror(-err));
		return EXIT_SCHED;
	}
	if ((err = sched_add_target(c->s, t.pid))) {
		kill(t.pid, SIGKILL);
		tree_kill();
		return err;
	}
	if (c->res.points && (err = place_points(c, r, t.pid))) {
		kill(t.pid, SIGKILL);
		tree_kill();
		sched_remove_target(c->s, t.pid);
		return err;
	}
	start = next_stats = next_points = now_s();
	next_stats += o->stats_interval_s;
	if ((err = target_release(&t))) {
		fprintf(stderr, "scx_fuzz: cannot run '%s': %s\n", o->cmd[0], strerror(-err));
		tree_kill();
		r->result = RUN_NOT_STARTED;
		r->status = err == -ENOENT ? EXIT_NOT_FOUND : EXIT_NOT_EXEC;
		sched_remove_target(c->s, t.pid);
		return 0;
	}
	errcheck_init(&check, o->error_cmd, o->error_interval_s, start);
	while (!(reaped = tree_reap(t.pid, &wstatus, &check))) {
		wait_io(c);
		follow_drain(&c->follow);
		capture_read(&c->out);
		sched_trace_drain(c->s);
		watch(c, t.pid, &forwarded, &next_stats);
		if (c->res.points)
			cool_points(c, &next_points);
		if (o->timeout_s && now_s() - start >= o->timeout_s) {
			timed_out = true;
			break;
		}
		if (o->iteration_s && now_s() - start >= o->iteration_s) {
			r->cut = true;
			break;
		}
		errcheck_poll(&check, now_s());
		if (check.fired)
			break;
	}
	r->duration_s = now_s() - start;
	if (c->res.points) {
		follow_drain(&c->follow);
		r->points_placed = c->probes.placed;
		probes_detach(&c->probes);
		r->nr_acts = sched_point_log(c->s, r->acts, FUZZ_POINT_LOG);
	}
	if (reaped < 0)
		fprintf(stderr, "scx_fuzz: cannot wait for the target: %s\n", strerror(-reaped));
	tree_kill();	/* what it left behind, or all of it after a timeout */
	sched_remove_target(c->s, t.pid);
	capture_finish(&c->out);
	sched_trace_drain(c->s);
	classify(c, r, wstatus, timed_out, check.fired, forwarded);
	counters_delta(c, r, before);
	return 0;
}

/* scx_fuzz's exit status once the runs are over (see --help and docs/usage.md). */
static int final_status(const struct campaign *c)
{
	const struct run *last = c->res.nr_runs ? &c->res.runs[c->res.nr_runs - 1] : NULL;

	if (c->res.stop == STOP_EJECTED)
		return EXIT_SCHED;
	if (c->res.stop == STOP_ERROR)
		return c->exit_status;
	if (!is_campaign(c->res.o)) {
		if (last->result == RUN_HANG)
			return EXIT_HANG;
		if (last->cut && last->result == RUN_PASS)
			return 0;
		return last->result == RUN_MATCH || last->result == RUN_ERRCMD ? 1 : last->status;
	}
	if (c->res.o->until == UNTIL_SUCCESS)
		return c->res.stop == STOP_SUCCESS ? 0 : 1;
	if (c->res.failures)
		return 1;
	return c->res.stop == STOP_SIGNAL ? 128 + SIGINT : 0;
}

static struct run *next_run(struct campaign *c)
{
	struct run *grown;

	if (c->res.nr_runs == c->cap) {
		grown = realloc(c->res.runs, (c->cap ? 2 * c->cap : 64) * sizeof(*grown));
		if (!grown)
			return NULL;
		c->res.runs = grown;
		c->cap = c->cap ? 2 * c->cap : 64;
	}
	memset(&c->res.runs[c->res.nr_runs], 0, sizeof(*c->res.runs));
	c->res.runs[c->res.nr_runs].n = c->res.nr_runs + 1;
	c->res.runs[c->res.nr_runs].seed = run_seed_of(c->res.seed, c->res.nr_runs + 1);
	return &c->res.runs[c->res.nr_runs++];
}

/* Whether run r ends the campaign; sets c->res.stop. */
static bool is_last(struct campaign *c, const struct run *r)
{
	const struct fuzz_opts *o = c->res.o;
	bool failed = run_failed(r->result);

	if (c->res.stop == STOP_EJECTED)
		return true;
	if (r->result == RUN_INTERRUPTED || fuzz_stop_signal)
		c->res.stop = STOP_SIGNAL;
	else if (r->result == RUN_NOT_STARTED)
		c->res.stop = STOP_ERROR;
	else if (o->until == UNTIL_FAILURE && failed)
		c->res.stop = STOP_FAILURE;
	else if (o->until == UNTIL_SUCCESS && !failed)
		c->res.stop = STOP_SUCCESS;
	else if (!is_campaign(o) || (o->repeat && r->n >= o->repeat))
		c->res.stop = STOP_DONE;
	else
		return false;
	c->exit_status = r->status;
	return true;
}

int campaign_run(struct campaign *c)
{
	const struct fuzz_opts *o = c->res.o;
	struct output_tail tail;
	struct run *r;
	int err, status;

	if (o->trace_path && (err = sched_trace_start(c->s, &c->trace)))
		return err;
	c->start_s = now_s();
	do {
		if (!(r = next_run(c))) {
			fprintf(stderr, "scx_fuzz: out of memory after %lu runs\n", c->res.nr_runs);
			c->res.stop = STOP_ERROR;
			c->exit_status = EXIT_SCHED;
			break;
		}
		if ((err = run_once(c, r))) {
			c->res.nr_runs--;
			c->res.stop = STOP_ERROR;
			c->exit_status = err;
			break;
		}
		c->res.elapsed_s = now_s() - c->start_s;
		if (run_failed(r->result))
			c->res.failures++;
		capture_tail(&c->out, &tail);
		if (is_campaign(o))
			report_run_line(&c->res, r, &tail);
		if (run_failed(r->result))
			report_failure(&c->res, r, &tail);
		/* the failing run's trace; a single run's either way */
		if (o->trace_path && (run_failed(r->result) || !is_campaign(o)))
			report_trace(&c->res, r, &c->trace);
		capture_close(&c->out);
	} while (!is_last(c, r));
	status = c->res.nr_runs ? final_status(c) : c->exit_status;
	if (is_campaign(o))
		report_summary(&c->res);
	if (o->json_path)
		report_json(&c->res, o->json_path, status);
	return status;
}
