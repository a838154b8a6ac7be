/* SPDX-License-Identifier: GPL-2.0 */
/*
 * scx_fuzz loader: check the system, load and attach the scheduler, run the
 * target under it, detach, and pass the target's exit status through.
 * What the scheduler does is described in bpf/scx_fuzz.bpf.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/random.h>
#include <sys/utsname.h>

#include "fuzz.h"
#include "campaign.h"
#include "sched.h"
#include "topo.h"
#include "bpflog.h"
#include "kfeatures.h"
#include "config.h"
#include "knobs.h"
#include "opts.h"
#include "points.h"
#include "pointname.h"
#include "preflight.h"
#include "probes.h"
#include "follow.h"
#include "serve.h"
#include "target.h"
#include "targets.h"
#include "tree.h"

static void on_stop(int sig)
{
	fuzz_stop_signal = sig;
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

/* Without a command: stay attached until SIGINT/SIGTERM or an ejection. */
static void stay_attached(struct sched *s, const struct fuzz_opts *o, bool *ejected)
{
	struct timespec nap = { 0, 50 * 1000 * 1000 };
	double next_stats = now_s() + o->stats_interval_s;

	while (!fuzz_stop_signal) {
		if (sched_exited(s)) {
			*ejected = true;
			fprintf(stderr, "scx_fuzz: the kernel ejected the scheduler\n");
			sched_print_exit(s);
			return;
		}
		if (o->stats_interval_s && now_s() >= next_stats) {
			sched_print_stats(s, stderr);
			next_stats += o->stats_interval_s;
		}
		nanosleep(&nap, NULL);
	}
}

static struct topo machine;
static struct fuzz_plan machine_plan;

static void report_attached(const struct fuzz_opts *o, const struct fuzz_knobs *k, __u64 seed)
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
		(unsigned long long)seed, (unsigned long long)seed);
}

/* The knobs to load: targets, the resolved intensity, and a seed. */
static int resolve_fuzzing(const struct fuzz_opts *o, struct fuzz_knobs *k, __u64 *seed)
{
	char err[256];
	int r;

	memset(k, 0, sizeof(*k));
	*seed = o->seed;
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
	*seed = o->seed;
	if (!o->seed_set && getrandom(seed, sizeof(*seed), 0) != sizeof(*seed))
		*seed = (__u64)time(NULL) * 2654435761u ^ (__u64)getpid();
	*seed &= (1ULL << 53) - 1;	/* printable and JSON-safe */
	return 0;
}

/* --json and --trace paths tried now (a file made for the try is removed): said before the runs, not after. */
static int check_output_path(const char *flag, const char *path)
{
	bool made = true;
	int fd;

	if (!path)
		return 0;
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0 && errno == EEXIST) {
		made = false;
		fd = open(path, O_WRONLY | O_CLOEXEC);
	}
	if (fd < 0) {
		fprintf(stderr, "scx_fuzz: cannot write the %s file %s: %s\n", flag, path, strerror(errno));
		return EXIT_USAGE;
	}
	close(fd);
	if (made)
		unlink(path);
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

/* --points: choose them in the command's binary (and its C library), and say what was found. */
static int choose_points(const struct fuzz_opts *o, const char *exe, __u64 seed, struct point_set *ps,
			 struct point_spec *spec_out)
{
	struct point_spec spec;
	size_t kinds[4] = { 0 };
	char err[512], also[1024] = "";

	if (!o->cmd) {
		fprintf(stderr, "scx_fuzz: --points needs a command (-- CMD)\n");
		return EXIT_USAGE;
	}
	if (points_parse_spec(o->points, &spec, err, sizeof(err))) {
		fprintf(stderr, "scx_fuzz: %s\n", err);
		return EXIT_USAGE;
	}
	*spec_out = spec;
	/* auto asks for whatever can be placed: a wrapper without any passes them on to what it runs */
	if (points_select(exe, &spec, seed, ps, err, sizeof(err))) {
		if (!spec.auto_size) {
			fprintf(stderr, "scx_fuzz: cannot choose points: %s\n", err);
			return EXIT_USAGE;
		}
		points_free(ps);
		fprintf(stderr, "scx_fuzz: note: --points auto: %s: points only in the programs it runs\n", err);
		return 0;
	}
	for (size_t i = 0; i < ps->n; i++)
		kinds[ps->p[i].kind]++;
	if (!ps->n && spec.auto_size) {
		fprintf(stderr, "scx_fuzz: note: --points auto: no point found in %s: points only in the programs "
			"it runs\n", exe);
		return 0;
	}
	if (!ps->n) {
		fprintf(stderr, "scx_fuzz: --points %s: no point found in %s\n", o->points, exe);
		return EXIT_USAGE;
	}
	for (unsigned b = 1; b < ps->npaths; b++)	/* its C library, then its own libraries */
		snprintf(also + strlen(also), sizeof(also) - strlen(also), "%s%s", b > 1 ? ", " : " and ",
			 ps->paths[b]);
	fprintf(stderr, "scx_fuzz: %zu points in %s%s: %zu lock calls, %zu functions, %zu instructions%s\n",
		ps->n, exe, also, kinds[POINT_LOCK] + kinds[POINT_LOCK_RET], kinds[POINT_FUNC], kinds[POINT_INSN],
		points_own_note(ps->own_from));
	return 0;
}

static int run(const struct fuzz_opts *o)
{
	struct campaign c = { .res.o = o, .out = { .fd = -1 } };
	struct point_set points = { 0 };
	struct point_spec spec;
	char path[PATH_MAX];
	struct fuzz_knobs knobs;
	struct utsname u;
	struct sched s;
	bool ejected = false;
	int err, status = 0;

	if ((err = resolve_fuzzing(o, &knobs, &c.res.seed)) ||
	    (err = check_output_path("--json", o->json_path)) ||
	    (err = check_output_path("--trace", o->trace_path)))
		return err;
	if ((err = check_root(geteuid())) || (err = check_sched_ext("/sys")))
		return err;
	if (o->cmd && (err = resolve_cmd(o->cmd[0], path, sizeof(path))))
		return err;
	c.res.point_seed = o->point_seed_set ? o->point_seed : c.res.seed;
	if (o->points && (err = choose_points(o, path, c.res.point_seed, &points, &spec)))
		goto out_points;
	if (o->points && (err = images_init(&c.follow.images, &points, &spec, c.res.point_seed, path))) {
		fprintf(stderr, "scx_fuzz: cannot keep the points of %s: %s\n", path, strerror(-err));
		err = EXIT_SCHED;
		goto out_points;
	}
	if ((err = plan_machine()))
		goto out_points;
	if (o->cmd && (err = tree_init())) {
		fprintf(stderr, "scx_fuzz: cannot become the target's subreaper: %s\n", strerror(-err));
		err = EXIT_SCHED;
		goto out_points;
	}
	bpflog_install(o->verbose);
	if (o->verbose)
		report_kernel_features(stderr);
	if ((err = sched_open_load(&s, o, &machine_plan, &knobs)) ||
	    (o->target_pid && (err = sched_add_target(&s, o->target_pid)))) {
		sched_destroy(&s);
		goto out_points;
	}
	sched_set_seed(&s, c.res.seed);
	install_signals();
	if ((err = sched_attach(&s)) || (o->points && (err = sched_points_start(&s))) ||
	    (o->points && knobs.image_wait_ns && (err = follow_start(&c.follow, &s, &c.probes, o->verbose)))) {
		sched_destroy(&s);
		goto out_points;
	}
	report_attached(o, &knobs, c.res.seed);
	if (o->cmd) {
		c.s = &s;
		c.res.points = o->points ? &points : NULL;
		c.knobs = &knobs;
		c.trace.points = c.res.points;
		c.res.kernel = uname(&u) ? "?" : u.release;
		c.res.nr_cpus = machine.nr_cpus;
		c.res.nr_llcs = machine.nr_llcs;
		c.res.nr_nodes = machine.nr_nodes;
		status = campaign_run(&c);
		ejected = c.res.stop == STOP_EJECTED;
	} else {
		stay_attached(&s, o, &ejected);
	}
	sched_detach(&s);
	if (!ejected)
		sched_print_exit(&s);
	if (o->stats_interval_s && !is_campaign(o))
		sched_print_stats(&s, stderr);
	probes_free(&c.probes);
	sched_destroy(&s);
	images_free(&c.follow.images);
	points_free(&points);
	trace_free(&c.trace);
	capture_close(&c.out);
	free(c.res.runs);
	if (ejected && o->cmd && !is_campaign(o) && c.res.nr_runs)
		fprintf(stderr, "scx_fuzz: target exited with status %d\n", c.res.runs[0].status);
	return ejected ? EXIT_SCHED : status;
out_points:
	images_free(&c.follow.images);
	points_free(&points);
	return err;
}

static void on_dump(int sig)
{
	serve_dump_asked = 1;
}

static int serve_usage(int status)
{
	fprintf(status ? stderr : stdout, "usage: scx_fuzz serve --config FILE [-v]\n"
		"Fuzz services, by cgroup or thread name, across their restarts, within a budget,\n"
		"backing off under CPU pressure; SIGUSR1 writes a flight record (docs/production.md).\n");
	return status;
}

/* `serve --config FILE [-v]`: the file's path, or NULL after saying why (or after --help). */
static const char *serve_args(int argc, char **argv, bool *verbose, int *status)
{
	static const struct option opts[] = {
		{ "config", required_argument, NULL, 'c' }, { "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' }, { 0 },
	};
	const char *path = NULL;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "c:vh", opts, NULL)) != -1) {
		if (c == 'c')
			path = optarg;
		else if (c == 'v')
			*verbose = true;
		else
			return *status = serve_usage(c == 'h' ? 0 : EXIT_USAGE), NULL;
	}
	if (!path || optind < argc) {
		fprintf(stderr, "scx_fuzz: serve takes --config FILE and nothing else\n");
		return *status = EXIT_USAGE, NULL;
	}
	return path;
}

static int serve_main(int argc, char **argv)
{
	struct sigaction dump = { .sa_handler = on_dump, .sa_flags = SA_RESTART };
	struct serve_config c = { 0 };
	struct fuzz_knobs knobs;
	struct fuzz_opts o;
	bool verbose = false;
	const char *path;
	struct sched s;
	char err[512];
	__u64 seed;
	int r = 0;

	if (!(path = serve_args(argc, argv, &verbose, &r)))
		return r;
	if ((r = config_load(path, &c, err, sizeof(err)))) {
		fprintf(stderr, "scx_fuzz: %s\n", err);
		goto out;
	}
	if ((r = config_to_opts(&c, &o, stderr)))
		goto out;
	o.verbose = verbose;
	if ((r = resolve_fuzzing(&o, &knobs, &seed)) || (r = check_root(geteuid())) ||
	    (r = check_sched_ext("/sys")) || (r = serve_check_pressure()) || (r = plan_machine()))
		goto out;
	bpflog_install(o.verbose);
	if (o.verbose)
		report_kernel_features(stderr);
	if ((r = sched_open_load(&s, &o, &machine_plan, &knobs)))
		goto out_sched;
	sched_set_seed(&s, seed);
	install_signals();
	sigemptyset(&dump.sa_mask);
	sigaction(SIGUSR1, &dump, NULL);
	if ((r = sched_attach(&s)))
		goto out_sched;
	report_attached(&o, &knobs, seed);
	r = serve_run(&s, &c, seed);
	sched_detach(&s);
	if (r != EXIT_SCHED)
		sched_print_exit(&s);
out_sched:
	sched_destroy(&s);
out:
	config_free(&c);
	return r;
}

int main(int argc, char **argv)
{
	struct fuzz_opts o;
	bool done;
	int err;

	if (argc > 1 && !strcmp(argv[1], "topo"))
		return topo_main(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "serve"))
		return serve_main(argc - 1, argv + 1);
	err = parse_opts(argc, argv, &o, &done, stdout);

	if (err || done)
		return err;
	return run(&o);
}
