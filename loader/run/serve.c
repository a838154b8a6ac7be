/* SPDX-License-Identifier: GPL-2.0 */
/*
 * serve: stay attached, fuzzing services by cgroup or name across their
 * restarts. Once a second: read CPU pressure and step fuzzing down or up
 * (backoff.c), and follow the target cgroup when its unit makes it anew.
 * All the while the last decisions are kept (the flight recorder) and
 * written as a trace when a target process dies badly or on SIGUSR1;
 * metrics are written every interval_s.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "backoff.h"
#include "campaign.h"
#include "errcheck.h"
#include "metrics.h"
#include "serve.h"
#include "targets.h"
#include "trace.h"

volatile sig_atomic_t serve_dump_asked;

struct serve_state {
	struct sched *s;
	const struct serve_config *c;
	__u64 seed;
	struct trace flight;
	struct backoff backoff;
	double pressure;
	__u64 cgroup_id, deaths;
	unsigned records;
	uint64_t sums[FUZZ_NR_STATS];
	struct errcheck check;		/* error_command */
	bool error_streak;		/* the last check succeeded too: no second record */
};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

#define SYSTEM_PRESSURE "/proc/pressure/cpu"

/* The PSI file back-off reads: the system's, or the target cgroup's. */
static void pressure_path(const struct serve_config *c, char *path, size_t len)
{
	if (c->pressure_of_cgroup)
		snprintf(path, len, "%s%s/cpu.pressure", c->cgroup[0] == '/' ? "" : "/sys/fs/cgroup/",
			 c->cgroup);
	else
		snprintf(path, len, SYSTEM_PRESSURE);
}

/* The pressure in PSI file `path` now, percent; -1 if it cannot be read (a cgroup not there yet). */
static double read_pressure(const char *path)
{
	char text[512];
	FILE *f;
	size_t n;
	double v;

	if (!(f = fopen(path, "r")))
		return -1;
	n = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	text[n] = 0;
	return psi_some_avg10(text, &v) ? -1 : v;
}

int serve_check_pressure(void)
{
	/* without PSI no cgroup has cpu.pressure either: the system's file tells for both */
	if (read_pressure(SYSTEM_PRESSURE) >= 0)
		return 0;
	fprintf(stderr, "scx_fuzz: cannot read " SYSTEM_PRESSURE " (a kernel without PSI, or booted "
		"with psi=0): serve backs off by it\n");
	return EXIT_USAGE;
}

static void step_backoff(struct serve_state *st)
{
	const struct serve_config *c = st->c;
	char path[4096];
	double p;

	pressure_path(c, path, sizeof(path));
	p = read_pressure(path);

	if (p < 0)
		return;
	st->pressure = p;
	if (!backoff_step(&st->backoff, p, c))
		return;
	sched_set_unfuzzed(st->s, backoff_unfuzzed_pct(&st->backoff));
	if (!st->backoff.level)
		fprintf(stderr, "scx_fuzz: back-off: cpu pressure %.1f%% above %.0f%%: fuzzing off\n",
			p, c->cpu_pressure);
	else
		fprintf(stderr, "scx_fuzz: back-off: cpu pressure below %.0f%% for %u s: fuzzing %u%% of "
			"target events\n", c->resume_below, c->resume_step_s,
			100 - backoff_unfuzzed_pct(&st->backoff));
}

/* A unit's cgroup is removed when it stops and made anew (a new id) when it starts. */
static void follow_cgroup(struct serve_state *st)
{
	__u64 id = 0;
	__u32 level;
	char err[256];

	if (!st->c->cgroup || (cgroup_resolve(st->c->cgroup, &id, &level, err, sizeof(err)), id) ==
	    st->cgroup_id)
		return;
	sched_set_cgroup(st->s, id);
	fprintf(stderr, id ? "scx_fuzz: cgroup %s is there: fuzzing it\n" :
		"scx_fuzz: cgroup %s is gone: fuzzing it when it comes back\n", st->c->cgroup);
	st->cgroup_id = id;
}

/* A death's record says whose: the last process that died in it. */
static void death_reason(const struct trace *t, const char *why, char *out, size_t len)
{
	for (size_t i = t->n; i-- > 0;) {
		const struct fuzz_trace_event *e = &t->ev[i];

		if (e->kind != FUZZ_EV_DIED)
			continue;
		if (e->value & 0x7f)
			snprintf(out, len, "process %u (%.16s) died of signal %llu", e->tgid, e->comm,
				 (unsigned long long)(e->value & 0x7f));
		else
			snprintf(out, len, "process %u (%.16s) exited with status %llu", e->tgid,
				 e->comm, (unsigned long long)(e->value >> 8 & 0xff));
		return;
	}
	snprintf(out, len, "%s", why);
}

static void write_flight(struct serve_state *st, const char *why, bool death)
{
	char path[4096], reason[128], repro[4200], stamp[32];
	time_t now = time(NULL);
	int err;

	if (!st->c->flight_events) {
		fprintf(stderr, "scx_fuzz: no flight record (%s): flight_events is 0\n", why);
		return;
	}
	sched_trace_drain(st->s);
	if (death)
		death_reason(&st->flight, why, reason, sizeof(reason));
	else
		snprintf(reason, sizeof(reason), "%s", why);
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", localtime(&now));
	snprintf(path, sizeof(path), "%s/flight-%s-%d-%u.json", st->c->flight_dir, stamp, (int)getpid(),
		 st->records);	/* the pid: a restarted serve does not overwrite its last records */
	snprintf(repro, sizeof(repro), "scx_fuzz serve --config %s (seed %llu): %s", st->c->path,
		 (unsigned long long)st->seed, reason);
	if (mkdir(st->c->flight_dir, 0755) && errno != EEXIST)
		err = -errno;
	else
		err = trace_write(&st->flight, path, st->seed, repro);
	if (err) {
		fprintf(stderr, "scx_fuzz: cannot write the flight record %s: %s\n", path, strerror(-err));
		return;
	}
	st->records++;
	fprintf(stderr, "scx_fuzz: flight record %s: the last %zu decisions (%s)\n", path,
		st->flight.n < st->flight.keep ? st->flight.n : st->flight.keep, reason);
}

static void write_metrics_to(const char *path, const struct metrics *m, bool as_json)
{
	int err;

	if (path && (err = metrics_write(path, m, as_json)))
		fprintf(stderr, "scx_fuzz: cannot write the %s file %s: %s\n", as_json ? "json" : "metrics",
			path, strerror(-err));
}

static void write_metrics(struct serve_state *st, bool attached, bool ejected)
{
	struct metrics m = {
		.target = st->c->cgroup ? st->c->cgroup : st->c->comm, .sums = st->sums,
		.attached = attached, .ejections = ejected, .flight_records = st->records,
		.unfuzzed_ratio = backoff_unfuzzed_pct(&st->backoff) / 100.0,
	};

	m.cpu_pressure = st->pressure;
	if ((!st->c->metrics && !st->c->json) || sched_read_stats(st->s, st->sums))
		return;
	write_metrics_to(st->c->metrics, &m, false);
	write_metrics_to(st->c->json, &m, true);
}

/* error_command: its success means a target failed (once per streak of successes). */
static void watch_error_command(struct serve_state *st, double now)
{
	int status;

	if (!st->check.cmd)
		return;
	if (st->check.pid > 0 && waitpid(st->check.pid, &status, WNOHANG) == st->check.pid) {
		errcheck_reaped(&st->check, st->check.pid, status);
		if (st->check.fired && !st->error_streak)
			write_flight(st, "the error command succeeded", false);
		st->error_streak = st->check.fired;
		st->check.fired = false;
	}
	errcheck_poll(&st->check, now);
}

/* Once a second: back-off and the cgroup; a death seen last time is written now its events are in. */
static void each_second(struct serve_state *st, bool *death_pending)
{
	__u64 deaths = sched_target_deaths(st->s);

	if (*death_pending) {
		write_flight(st, "a target died", true);
		*death_pending = false;
	}
	if (deaths != st->deaths) {
		st->deaths = deaths;
		*death_pending = st->c->flight_events > 0;
	}
	step_backoff(st);
	follow_cgroup(st);
}

int serve_run(struct sched *s, const struct serve_config *c, __u64 seed)
{
	struct serve_state st = { .s = s, .c = c, .seed = seed, .backoff.level = BACKOFF_FULL,
				  .flight.keep = c->flight_events, .cgroup_id = (__u64)-1 };
	double t = now_s(), next_second = t, next_metrics = t;
	bool ejected = false, death_pending = false;

	if (c->flight_events && sched_trace_start(s, &st.flight))
		return EXIT_SCHED;
	st.deaths = sched_target_deaths(s);
	errcheck_init(&st.check, c->error_command, c->error_check_interval_s, t);
	while (!fuzz_stop_signal) {
		struct pollfd pfd = { .fd = sched_trace_fd(s), .events = POLLIN };

		poll(&pfd, pfd.fd >= 0, 100);
		sched_trace_drain(s);
		if ((ejected = sched_exited(s))) {
			fprintf(stderr, "scx_fuzz: the kernel ejected the scheduler; every task is back "
				"under the default scheduler\n");
			sched_print_exit(s);
			break;
		}
		if (serve_dump_asked) {
			serve_dump_asked = 0;
			write_flight(&st, "SIGUSR1", false);
		}
		watch_error_command(&st, t = now_s());
		if (t >= next_second) {
			each_second(&st, &death_pending);
			next_second = t + 1;
		}
		if ((c->metrics || c->json) && t >= next_metrics) {
			write_metrics(&st, true, false);
			next_metrics = t + c->interval_s;
		}
	}
	if (ejected && c->flight_events)
		write_flight(&st, "the scheduler was ejected", false);
	write_metrics(&st, false, ejected);
	if (st.check.pid > 0 && !kill(st.check.pid, SIGKILL))
		waitpid(st.check.pid, NULL, 0);
	sched_trace_stop(s);
	trace_free(&st.flight);
	return ejected ? EXIT_SCHED : 0;
}
