/* SPDX-License-Identifier: GPL-2.0 */
/* Command-line parsing; the help text is the user's first documentation. */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <regex.h>
#include <string.h>

#include "fuzz.h"
#include "scx_fuzz.h"
#include "knobs.h"
#include "longopts.h"
#include "opts.h"

static const char usage[] =
"usage: scx_fuzz [OPTIONS] [-- CMD [ARGS...]]   (root; a kernel with sched_ext)\n"
"Run CMD with its process tree scheduled badly on purpose, then exit with CMD's\n"
"status; without CMD, fuzz the --pid/--cgroup/--comm targets until SIGINT.\n"
"  -p, --pid PID  --cgroup PATH  --comm NAME[*]  --exclude-comm NAME[*]  --java\n"
"  -i, --intensity off|low|medium|high|extreme  (default medium; low: 1% budget)\n"
"      --seed N   seed of every random decision (default random, printed)\n"
"      --delay MIN:MAX (1us:1s)  --delay-prob PCT  --delay-dist uniform|exp|log\n"
"      --run-scale PCT (50) --hold-share PCT (25) --budget PCT (of run time)\n"
"      --events PCT (20), --starts PCT (50): preempt+hold at wake-ups, creations\n"
"      --preempt auto|off|MIN:MAX  timers inside run bursts (auto) or a range\n"
"      --jitter DUR  --migrate[-far] PCT  --serialize: one target thread at once\n"
"      --points locks,funcs,insns[:N]|auto  uprobes in CMD where it is preempted\n"
"        --point-prob PCT (10; 0: by run) --point-rate N/s (2000) --point-seed N\n"
"      --mode pct --depth D  priorities, D-1 change points (--pct-steps K: steps)\n"
"      --mode windows  the original tool's: --run MIN:MAX, --sleep MIN:MAX,\n"
"                 --system-slice DUR, --no-scale-slice\n"
"  -r, --repeat N, --until-failure, --until-success  run CMD again and again\n"
"  -t, --timeout S  a longer run is a hang   --fail-on RE  output that is failure\n"
"      --error-command C  its success (run every --error-check-interval S) is one\n"
"      --iteration-time S  end a run as a pass   --max-iterations N   --json F\n"
"      --trace F  the failing run's schedule, for ui.perfetto.dev   -v, --verbose\n"
"  -s, --slice US|MIN:MAX  base slice (5000 us) | target slice range, -b, --batch\n"
"      N (4)  --global-queue  -S, --stats SEC  -V, --version  -h, --help\n"
"Exit: CMD's (a campaign: 0/1: a failure), 2 bad usage, 3 scheduler trouble.\n";

/* Long options without a short letter. */
static int parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *v)
{
	char *end;
	unsigned long long x;

	errno = 0;
	x = strtoull(s, &end, 10);
	if (errno || end == s || *end || s[0] == '-' || x < min || x > max)
		return -1;
	*v = x;
	return 0;
}

static int parse_fault(const char *s, unsigned *fault)
{
	if (!strcmp(s, "bpf-error"))
		*fault = FUZZ_FAULT_BPF_ERROR;
	else if (!strcmp(s, "verifier"))
		*fault = FUZZ_FAULT_VERIFIER;
	else if (!strcmp(s, "strand"))
		*fault = FUZZ_FAULT_STRAND;
	else
		return -1;
	return 0;
}

static int bad(const char *what, const char *arg)
{
	fprintf(stderr, "scx_fuzz: invalid %s: '%s' (see scx_fuzz --help)\n", what, arg);
	return EXIT_USAGE;
}


/* The runner's flags; -1 if `c` is none of them. */
static int parse_runner_opt(int c, const char *arg, struct fuzz_opts *o)
{
	regex_t re;
	uint64_t v;
	char *end;

	switch (c) {
	case 'r':
		if (parse_u64(arg, 1, 1000000000, &v))
			return bad("--repeat (runs, 1..10^9)", arg);
		o->repeat = v;
		return 0;
	case 'U':
	case 'W':
		if (o->until != UNTIL_NONE && o->until != (c == 'U' ? UNTIL_FAILURE : UNTIL_SUCCESS)) {
			fprintf(stderr, "scx_fuzz: --until-failure and --until-success contradict each other\n");
			return EXIT_USAGE;
		}
		o->until = c == 'U' ? UNTIL_FAILURE : UNTIL_SUCCESS;
		return 0;
	case 't':
		o->timeout_s = strtod(arg, &end);
		if (end == arg || *end || !(o->timeout_s > 0 && o->timeout_s <= 7 * 86400))
			return bad("--timeout (seconds, above 0)", arg);
		return 0;
	case 'f':
		if (regcomp(&re, arg, REG_EXTENDED | REG_NOSUB))
			return bad("--fail-on (an extended regular expression)", arg);
		regfree(&re);
		o->fail_on = arg;
		return 0;
	case 'J':
		o->json_path = arg;
		return 0;
	case 'T':
		o->trace_path = arg;
		return 0;
	case OPT_ITERATION_TIME:	/* the seed's name: end each run after S seconds, as a pass */
		o->iteration_s = strtod(arg, &end);
		if (end == arg || *end || !(o->iteration_s > 0 && o->iteration_s <= 7 * 86400))
			return bad("--iteration-time (seconds, above 0)", arg);
		return 0;
	case OPT_MAX_ITERATIONS:	/* the seed's name: runs until a failure, at most N */
		if (parse_u64(arg, 1, 1000000000, &v))
			return bad("--max-iterations (runs, 1..10^9)", arg);
		o->repeat = v;
		if (o->until == UNTIL_SUCCESS) {
			fprintf(stderr, "scx_fuzz: --max-iterations (until a failure) and --until-success "
				"contradict each other\n");
			return EXIT_USAGE;
		}
		o->until = UNTIL_FAILURE;
		return 0;
	case OPT_ERROR_CMD:
		if (!*arg)
			return bad("--error-command (a shell command)", arg);
		o->error_cmd = arg;
		return 0;
	case OPT_ERROR_INTERVAL:
		o->error_interval_s = strtod(arg, &end);
		if (end == arg || *end || !(o->error_interval_s >= 0.1 && o->error_interval_s <= 86400))
			return bad("--error-check-interval (seconds, 0.1..86400)", arg);
		return 0;
	}
	return -1;	/* not one of ours */
}

/* The fuzzing flags: targets, intensity, seed, perturbations; -1 if `c` is none of them. */
static int parse_fuzz_opt(int c, const char *arg, struct fuzz_opts *o)
{
	struct fuzz_knobs *k = &o->explicit_knobs;
	struct fuzz_knobs probe;
	uint64_t v;
	__u64 ns;

	switch (c) {
	case 'p':
		if (parse_u64(arg, 1, 4194304, &v))
			return bad("--pid", arg);
		o->target_pid = v;
		return 0;
	case 'C':
		o->cgroup = arg;
		return 0;
	case 'c':
		if (!arg[0] || strlen(arg) > (arg[strlen(arg) - 1] == '*' ? 16 : 15))
			return bad("--comm (a thread name: 1..15 characters, optional '*' at the end)", arg);
		o->comm = arg;
		return 0;
	case OPT_EXCLUDE_COMM:
		if (!arg[0] || strlen(arg) > (arg[strlen(arg) - 1] == '*' ? 16 : 15))
			return bad("--exclude-comm (a thread name: 1..15 characters, optional '*' at the end)",
				   arg);
		if (o->nr_excludes == FUZZ_MAX_EXCLUDES)
			return bad("--exclude-comm (at most 32)", arg);
		o->excludes[o->nr_excludes++] = arg;
		return 0;
	case OPT_JAVA:
		o->java = true;
		return 0;
	case 'i':
		if (intensity_preset(arg, &probe))
			return bad("--intensity (off, low, medium, high, extreme)", arg);
		o->intensity = arg;
		return 0;
	case 'e':
		if (parse_u64(arg, 0, UINT64_MAX, &v))
			return bad("--seed (an integer)", arg);
		o->seed = v;
		o->seed_set = true;
		return 0;
	case OPT_MODE:
		if (strcmp(arg, "windows") && strcmp(arg, "perturb") && strcmp(arg, "pct"))
			return bad("--mode (perturb, windows, pct)", arg);
		o->windows = !strcmp(arg, "windows");
		o->pct = !strcmp(arg, "pct");
		return 0;
	case OPT_DEPTH:
		if (parse_u64(arg, 1, FUZZ_MAX_DEPTH, &v))
			return bad("--depth (1..8)", arg);
		o->pct_depth = v;
		return 0;
	case OPT_PCT_STEPS:
		if (parse_u64(arg, 1, 1000000000, &v))
			return bad("--pct-steps (1..10^9)", arg);
		o->pct_steps = v;
		return 0;
	case OPT_RUN:
		if (parse_range_ns(arg, &k->run_min_ns, &k->run_max_ns))
			return bad("--run (MIN:MAX, e.g. 1ms:100ms)", arg);
		o->knobs_set |= KNOB_RUN;
		return 0;
	case OPT_SLEEP:
		if (parse_range_ns(arg, &k->sleep_min_ns, &k->sleep_max_ns))
			return bad("--sleep (MIN:MAX, e.g. 10ms:2s)", arg);
		o->knobs_set |= KNOB_SLEEP;
		return 0;
	case OPT_SYSTEM_SLICE:
		if (parse_duration_ns(arg, &ns) || ns < 50000 || ns > 1000000000)
			return bad("--system-slice (50us..1s)", arg);
		o->slice_us = ns / 1000;
		return 0;
	case OPT_NO_SCALE:
		o->knobs_set |= KNOB_NO_SCALE;
		return 0;
	case OPT_PREEMPT:
		o->knobs_set &= ~(KNOB_PREEMPT | KNOB_PREEMPT_AUTO | KNOB_PREEMPT_OFF);
		if (!strcmp(arg, "auto"))
			o->knobs_set |= KNOB_PREEMPT_AUTO;
		else if (!strcmp(arg, "off"))
			o->knobs_set |= KNOB_PREEMPT_OFF;
		else if (parse_range_ns(arg, &k->preempt_min_ns, &k->preempt_max_ns))
			return bad("--preempt (auto, off or MIN:MAX, e.g. 20us:500us)", arg);
		else
			o->knobs_set |= KNOB_PREEMPT;
		return 0;
	case OPT_EVENTS:
		if (parse_percent_ppm(arg, &k->event_ppm))
			return bad("--events (percent, 0..100)", arg);
		o->knobs_set |= KNOB_EVENTS;
		return 0;
	case OPT_STARTS:
		if (parse_percent_ppm(arg, &k->start_ppm))
			return bad("--starts (percent, 0..100)", arg);
		o->knobs_set |= KNOB_STARTS;
		return 0;
	case OPT_POINTS:
		o->points = strcmp(arg, "off") ? arg : NULL;
		return 0;
	case OPT_POINT_PROB:
		if (parse_percent_ppm(arg, &k->point_ppm))
			return bad("--point-prob (percent, 0..100)", arg);
		o->knobs_set |= KNOB_POINT_PROB;
		return 0;
	case OPT_POINT_RATE: {
		char *end;

		o->point_rate = strtod(arg, &end);
		if (*end || !(o->point_rate >= 10) || o->point_rate > 1e8)
			return bad("--point-rate (hits per second, 10..10^8)", arg);
		return 0;
	}
	case OPT_POINT_SEED:
		if (parse_u64(arg, 0, UINT64_MAX, &v))
			return bad("--point-seed (an integer)", arg);
		o->point_seed = v;
		o->point_seed_set = true;
		return 0;
	case OPT_RUN_SCALE:
		if (parse_percent_ppm(arg, &k->scale_ppm))
			return bad("--run-scale (percent, 0..100)", arg);
		o->knobs_set |= KNOB_RUN_SCALE;
		return 0;
	case OPT_HOLD_SHARE:
		if (parse_percent_ppm(arg, &k->hold_share_ppm))
			return bad("--hold-share (percent, 0..100; 0: no limit)", arg);
		o->knobs_set |= KNOB_HOLD_SHARE;
		return 0;
	case OPT_SERIALIZE:
		o->knobs_set |= KNOB_SERIALIZE;
		return 0;
	case 'd':
		if (parse_range_ns(arg, &k->delay_min_ns, &k->delay_max_ns))
			return bad("--delay (MIN:MAX, e.g. 50us:50ms)", arg);
		o->knobs_set |= KNOB_DELAY;
		return 0;
	case 'P':
		if (parse_percent_ppm(arg, &k->delay_ppm))
			return bad("--delay-prob (percent, 0..100)", arg);
		o->knobs_set |= KNOB_DELAY_PROB;
		return 0;
	case 'D':
		if (parse_dist(arg, &k->delay_dist))
			return bad("--delay-dist (uniform, exp, loguniform)", arg);
		o->knobs_set |= KNOB_DELAY_DIST;
		return 0;
	case 'j':
		if (parse_duration_ns(arg, &k->jitter_ns))
			return bad("--jitter (a duration, e.g. 5ms)", arg);
		o->knobs_set |= KNOB_JITTER;
		return 0;
	case 'm':
		if (parse_percent_ppm(arg, &k->migrate_ppm))
			return bad("--migrate (percent, 0..100)", arg);
		o->knobs_set |= KNOB_MIGRATE;
		return 0;
	case 'M':
		if (parse_percent_ppm(arg, &k->far_ppm))
			return bad("--migrate-far (percent, 0..100)", arg);
		o->knobs_set |= KNOB_FAR;
		return 0;
	case 'B':
		if (parse_percent_ppm(arg, &k->budget_ppm) || !k->budget_ppm)
			return bad("--budget (percent, above 0)", arg);
		o->knobs_set |= KNOB_BUDGET;
		return 0;
	}
	return parse_runner_opt(c, arg, o);
}

int parse_opts(int argc, char **argv, struct fuzz_opts *o, bool *done, FILE *out)
{
	struct fuzz_knobs *k = &o->explicit_knobs;
	uint64_t v;
	int c, err;

	memset(o, 0, sizeof(*o));
	o->slice_us = FUZZ_DEFAULT_SLICE_US;
	o->batch = FUZZ_DEFAULT_BATCH;
	o->error_interval_s = 10;
	o->point_rate = 2000;
	*done = false;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, fuzz_shortopts, fuzz_longopts, NULL)) != -1) {
		switch (c) {
		case 's':
			if (strchr(optarg, ':')) {
				if (parse_range_ns(optarg, &k->slice_min_ns, &k->slice_max_ns))
					return bad("--slice range (MIN:MAX, e.g. 100us:2ms)", optarg);
				o->knobs_set |= KNOB_SLICE_RANGE;
			} else if (parse_u64(optarg, 50, 1000000, &v)) {
				return bad("--slice (microseconds, 50..1000000)", optarg);
			} else {
				o->slice_us = v;
			}
			break;
		case 'b':
			if (parse_u64(optarg, 1, FUZZ_MAX_BATCH, &v))
				return bad("--batch (tasks, 1..32)", optarg);
			o->batch = v;
			break;
		case 'G':
			o->global_queue = true;
			break;
		case 'S':
			if (parse_u64(optarg, 1, 3600, &v))
				return bad("--stats (seconds, 1..3600)", optarg);
			o->stats_interval_s = v;
			break;
		case 'v':
			o->verbose = true;
			break;
		case 'V':
			fprintf(out, "scx_fuzz %s\n", SCX_FUZZ_VERSION);
			*done = true;
			return 0;
		case 'h':
			fputs(usage, out);
			*done = true;
			return 0;
		case 'F':
			if (parse_fault(optarg, &o->test_fault))
				return bad("--test-fault", optarg);
			break;
		default:
			err = parse_fuzz_opt(c, optarg, o);
			if (err < 0)
				return bad("option", argv[optind - 1]);
			if (err)
				return err;
		}
	}
	if (optind < argc)
		o->cmd = &argv[optind];
	o->argc = argc;
	o->argv = argv;
	if (o->cmd && o->target_pid) {
		fprintf(stderr, "scx_fuzz: --pid and a command contradict each other: give one\n");
		return EXIT_USAGE;
	}
	if (!o->cmd && (is_campaign(o) || o->timeout_s || o->iteration_s || o->fail_on || o->error_cmd)) {
		fprintf(stderr, "scx_fuzz: --repeat, --until-*, --timeout, --fail-on and --error-command "
			"need a command (-- CMD ARGS)\n");
		return EXIT_USAGE;
	}
	return 0;
}
