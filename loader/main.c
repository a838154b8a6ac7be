/* SPDX-License-Identifier: GPL-2.0 */
/*
 * scx_fuzz loader: check the system, load and attach the scheduler, run the
 * target under it, detach, and pass the target's exit status through.
 * What the scheduler does is described in bpf/scx_fuzz.bpf.c.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/utsname.h>

#include "fuzz.h"
#include "sched.h"
#include "topo.h"

static volatile sig_atomic_t stop_signal;

static void on_stop(int sig)
{
	stop_signal = sig;
}

static void install_signals(void)
{
	struct sigaction sa = { .sa_handler = on_stop };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* One poll period: short enough to notice exits quickly, long enough to cost nothing. */
static void nap(void)
{
	struct timespec ts = { 0, 50 * 1000 * 1000 };

	nanosleep(&ts, NULL);
}

/* Supervise until the target exits, or (without a target) a stop signal. */
static int supervise(struct sched *s, struct target *t, const struct fuzz_opts *o, bool *ejected)
{
	int forwarded = 0, wstatus = 0, r;
	double next_stats = now_s() + o->stats_interval_s;

	for (;;) {
		if (stop_signal && stop_signal != forwarded) {
			forwarded = stop_signal;
			if (!t)
				return 0;
			kill(t->pid, forwarded);	/* the target decides how to stop */
		}
		if (!*ejected && sched_exited(s)) {
			*ejected = true;
			fprintf(stderr, "scx_fuzz: the kernel ejected the scheduler%s\n",
				t ? "; the target goes on under the default scheduler" : "");
			sched_print_exit(s);
			if (!t)
				return 0;
		}
		if (t) {
			r = target_wait(t, false, &wstatus);
			if (r < 0) {
				fprintf(stderr, "scx_fuzz: cannot wait for the target: %s\n", strerror(-r));
				return EXIT_SCHED;
			}
			if (r)
				return exit_status_of(wstatus);
		}
		if (o->stats_interval_s && now_s() >= next_stats) {
			sched_print_stats(s, stderr);
			next_stats += o->stats_interval_s;
		}
		nap();
	}
}

static struct topo machine;
static struct fuzz_plan machine_plan;

static void report_attached(const struct fuzz_opts *o)
{
	struct utsname u;

	if (uname(&u))
		strcpy(u.release, "?");
	fprintf(stderr, "scx_fuzz: attached (kernel %s; %d CPUs, %d LLCs, %d nodes; slice %llu us)\n",
		u.release, machine.nr_cpus, machine.nr_llcs, machine.nr_nodes,
		(unsigned long long)o->slice_us);
}

/* Lay out the scheduler from this machine's topology; refuse what we cannot hold. */
static int plan_machine(void)
{
	struct topo_source src = { 0 };
	char err[256];

	if (topo_discover(&machine, &src, err, sizeof(err)) ||
	    plan_build(&machine, &machine_plan, err, sizeof(err))) {
		fprintf(stderr, "scx_fuzz: cannot plan the dispatch queues: %s\n", err);
		return EXIT_SCHED;
	}
	return 0;
}

static int run(const struct fuzz_opts *o)
{
	struct target tgt = { .pid = -1, .gate_fd = -1, .exec_err_fd = -1 }, *t = NULL;
	char path[PATH_MAX];
	struct sched s;
	bool ejected = false;
	int err, status;

	if ((err = check_root(geteuid())) || (err = check_sched_ext("/sys")))
		return err;
	if (o->cmd && (err = resolve_cmd(o->cmd[0], path, sizeof(path))))
		return err;
	if ((err = plan_machine()))
		return err;
	bpflog_install(o->verbose);
	if ((err = sched_open_load(&s, o, &machine_plan))) {
		sched_destroy(&s);
		return err;
	}
	if (o->cmd) {
		if ((err = target_spawn(&tgt, o->cmd))) {
			fprintf(stderr, "scx_fuzz: cannot start the target: %s\n", strerror(-err));
			sched_destroy(&s);
			return EXIT_SCHED;
		}
		t = &tgt;
	}
	install_signals();
	if ((err = sched_attach(&s))) {
		if (t) {
			kill(t->pid, SIGKILL);	/* never run the target unfuzzed by surprise */
			target_wait(t, true, &status);
		}
		sched_destroy(&s);
		return err;
	}
	report_attached(o);
	if (t && (err = target_release(t))) {
		fprintf(stderr, "scx_fuzz: cannot run '%s': %s\n", o->cmd[0], strerror(-err));
		target_wait(t, true, &status);
		status = err == -ENOENT ? EXIT_NOT_FOUND : EXIT_NOT_EXEC;
	} else {
		status = supervise(&s, t, o, &ejected);
	}
	sched_detach(&s);
	if (!ejected)
		sched_print_exit(&s);
	if (o->stats_interval_s)
		sched_print_stats(&s, stderr);
	sched_destroy(&s);
	if (ejected) {
		if (t)
			fprintf(stderr, "scx_fuzz: target exited with status %d\n", status);
		return EXIT_SCHED;
	}
	return status;
}

int main(int argc, char **argv)
{
	struct fuzz_opts o;
	bool done;
	int err;

	if (argc > 1 && !strcmp(argv[1], "topo"))
		return topo_main(argc - 1, argv + 1);
	err = parse_opts(argc, argv, &o, &done, stdout);

	if (err || done)
		return err;
	return run(&o);
}
