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
#include <sys/random.h>
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

static void report_attached(const struct fuzz_opts *o, const struct fuzz_knobs *k)
{
	struct utsname u;

	if (uname(&u))
		strcpy(u.release, "?");
	fprintf(stderr, "scx_fuzz: attached (kernel %s; %d CPUs, %d LLCs, %d nodes; slice %llu us)\n",
		u.release, machine.nr_cpus, machine.nr_llcs, machine.nr_nodes,
		(unsigned long long)o->slice_us);
	if (!k->target_by)
		return;
	/* The seed is what makes a failing run repeatable: always say it. */
	fprintf(stderr, "scx_fuzz: fuzzing%s%s%s%s%s%s at intensity %s%s, seed %llu (repeat with --seed %llu)\n",
		o->cmd ? " the command's process tree" : "", o->target_pid ? " a pid's process tree" : "",
		o->cgroup ? " cgroup " : "", o->cgroup ? o->cgroup : "",
		o->comm ? " threads named " : "", o->comm ? o->comm : "",
		o->intensity ? o->intensity : "medium", o->knobs_set ? " with overrides" : "",
		(unsigned long long)k->seed, (unsigned long long)k->seed);
}

/* The knobs to load: targets, the resolved intensity, and a seed. */
static int resolve_fuzzing(const struct fuzz_opts *o, struct fuzz_knobs *k)
{
	char err[256];
	int r;

	memset(k, 0, sizeof(*k));
	if (!o->cmd && !o->target_pid && !o->cgroup && !o->comm) {
		if (o->knobs_set || o->intensity || o->seed_set)
			fprintf(stderr, "scx_fuzz: note: no target (CMD, --pid, --cgroup, --comm): "
				"fuzzing options have no effect\n");
		return 0;
	}
	if ((r = knobs_resolve(o, k, err, sizeof(err))) || (r = targets_resolve(o, k, err, sizeof(err)))) {
		fprintf(stderr, "scx_fuzz: %s\n", err);
		return r;
	}
	if (!o->seed_set && getrandom(&k->seed, sizeof(k->seed), 0) != sizeof(k->seed))
		k->seed = (__u64)time(NULL) * 2654435761u ^ (__u64)getpid();
	k->seed &= (1ULL << 53) - 1;	/* printable and JSON-safe */
	return 0;
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
	struct fuzz_knobs knobs;
	struct sched s;
	bool ejected = false;
	int err, status;

	if ((err = resolve_fuzzing(o, &knobs)))
		return err;
	if ((err = check_root(geteuid())) || (err = check_sched_ext("/sys")))
		return err;
	if (o->cmd && (err = resolve_cmd(o->cmd[0], path, sizeof(path))))
		return err;
	if ((err = plan_machine()))
		return err;
	bpflog_install(o->verbose);
	if ((err = sched_open_load(&s, o, &machine_plan, &knobs)) ||
	    (o->target_pid && (err = sched_add_target(&s, o->target_pid)))) {
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
		/* Registered before it can exec: CMD's first instruction is already fuzzed. */
		if ((err = sched_add_target(&s, t->pid))) {
			kill(t->pid, SIGKILL);
			target_wait(t, true, &status);
			sched_destroy(&s);
			return err;
		}
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
	report_attached(o, &knobs);
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
