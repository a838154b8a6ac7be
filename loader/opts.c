/* SPDX-License-Identifier: GPL-2.0 */
/* Command-line parsing; the help text is the user's first documentation. */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "scx_fuzz.h"

static const char usage[] =
"usage: scx_fuzz [OPTIONS] [-- CMD [ARGS...]]\n"
"\n"
"Attach the scx_fuzz sched_ext scheduler, run CMD under it, detach, and exit\n"
"with CMD's status (128+N if a signal N killed it). Without CMD, stay attached\n"
"until SIGINT/SIGTERM. Needs root and a kernel with sched_ext.\n"
"\n"
"  -s, --slice US        time slice in microseconds (default 5000)\n"
"  -b, --batch N         tasks moved per steal between LLCs (default 4, max 32)\n"
"      --global-queue    baseline: the seed's single shared queue (slow on big machines)\n"
"  -S, --stats SEC       print the scheduler's counters every SEC seconds\n"
"  -v, --verbose         show libbpf's debug output\n"
"  -V, --version         print the version and exit\n"
"  -h, --help            print this help and exit\n"
"\n"
"Exit status: CMD's own, or 2 bad usage, 3 scheduler could not attach or was\n"
"ejected, 126 CMD not executable, 127 CMD not found.\n"
"Design: docs/design.md.\n";

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
	else
		return -1;
	return 0;
}

static int bad(const char *what, const char *arg)
{
	fprintf(stderr, "scx_fuzz: invalid %s: '%s' (see scx_fuzz --help)\n", what, arg);
	return EXIT_USAGE;
}

int parse_opts(int argc, char **argv, struct fuzz_opts *o, bool *done, FILE *out)
{
	static const struct option longopts[] = {
		{ "slice", required_argument, NULL, 's' },
		{ "batch", required_argument, NULL, 'b' },
		{ "global-queue", no_argument, NULL, 'G' },
		{ "stats", required_argument, NULL, 'S' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "version", no_argument, NULL, 'V' },
		{ "help", no_argument, NULL, 'h' },
		{ "test-fault", required_argument, NULL, 'F' },	/* hidden */
		{ 0 },
	};
	uint64_t v;
	int c;

	memset(o, 0, sizeof(*o));
	o->slice_us = FUZZ_DEFAULT_SLICE_US;
	o->batch = FUZZ_DEFAULT_BATCH;
	*done = false;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+s:b:S:vVh", longopts, NULL)) != -1) {
		switch (c) {
		case 's':
			if (parse_u64(optarg, 50, 1000000, &v))
				return bad("--slice (microseconds, 50..1000000)", optarg);
			o->slice_us = v;
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
			return bad("option", argv[optind - 1]);
		}
	}
	if (optind < argc)
		o->cmd = &argv[optind];
	return 0;
}
