/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-run seeds and the command line that repeats one run: scx_fuzz's own
 * argv minus the campaign flags (--repeat, --until-*, --json, --seed),
 * plus --seed of that run, shell-quoted so it can be pasted as is.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "fuzz.h"
#include "fuzz_rand.h"
#include "longopts.h"
#include "repro.h"

/* Run 1 uses the campaign seed itself, so `--seed S --until-failure` starts with run S. */
__u64 run_seed_of(__u64 campaign_seed, unsigned long run)
{
	if (run <= 1)
		return campaign_seed;
	return fuzz_mix64(campaign_seed + run * 0x9e3779b97f4a7c15ULL) & ((1ULL << 53) - 1);
}

static const char *const dropped[] = { "repeat", "until-failure", "until-success", "max-iterations", "json",
					 "seed", "pct-steps", "point-seed" };

static bool is_dropped(const char *name)
{
	for (size_t i = 0; i < sizeof(dropped) / sizeof(dropped[0]); i++)
		if (!strcmp(name, dropped[i]))
			return true;
	return false;
}

/* Append `s` to buf, single-quoted if the shell would otherwise split or expand it. */
static void append_word(char *buf, size_t len, const char *s)
{
	size_t n = strlen(buf);
	bool plain = *s && strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
				     "0123456789_./:=,+-%@") == strlen(s);

	if (n && n < len - 1)
		buf[n++] = ' ';
	if (plain) {
		snprintf(buf + n, len - n, "%s", s);
		return;
	}
	n += snprintf(buf + n, len - n, "'");
	for (; *s && n < len - 5; s++)
		n += *s == '\'' ? snprintf(buf + n, len - n, "'\\''") : snprintf(buf + n, len - n, "%c", *s);
	snprintf(buf + n, len - n, "'");
}

/* The long option argv[i] names ("--name" or "--name=value"), or NULL. */
static const struct option *long_opt(const char *arg, bool *inline_value)
{
	size_t len = strcspn(arg + 2, "=");

	*inline_value = arg[2 + len] == '=';
	for (const struct option *o = fuzz_longopts; o->name; o++)
		if (strlen(o->name) == len && !strncmp(o->name, arg + 2, len))
			return o;
	return NULL;
}

/* Whether short option `c` takes an argument. */
static bool short_takes_arg(char c)
{
	const char *p = strchr(fuzz_shortopts + 1, c);

	return p && p[1] == ':';
}

void format_repro(int argc, char **argv, __u64 seed, uint64_t pct_steps, const __u64 *point_seed, char *buf,
		  size_t len)
{
	const struct option *o;
	bool inline_value;
	char seed_s[32];
	int i;

	buf[0] = 0;
	append_word(buf, len, argv[0]);
	snprintf(seed_s, sizeof(seed_s), "%llu", (unsigned long long)seed);
	append_word(buf, len, "--seed");
	append_word(buf, len, seed_s);
	if (pct_steps) {	/* --mode pct: the steps its change points were drawn over */
		snprintf(seed_s, sizeof(seed_s), "%llu", (unsigned long long)pct_steps);
		append_word(buf, len, "--pct-steps");
		append_word(buf, len, seed_s);
	}
	if (point_seed) {	/* --points: the campaign's sample, which a later run's seed would not draw */
		snprintf(seed_s, sizeof(seed_s), "%llu", (unsigned long long)*point_seed);
		append_word(buf, len, "--point-seed");
		append_word(buf, len, seed_s);
	}
	for (i = 1; i < argc && argv[i][0] == '-' && strcmp(argv[i], "--"); i++) {
		if (argv[i][1] == '-') {
			o = long_opt(argv[i], &inline_value);
			bool takes = o && o->has_arg == required_argument && !inline_value;

			if (o && is_dropped(o->name)) {
				i += takes;
				continue;
			}
			append_word(buf, len, argv[i]);
			if (takes && i + 1 < argc)
				append_word(buf, len, argv[++i]);
		} else {
			/* a short option; -r (repeat) is the only dropped one */
			bool takes = short_takes_arg(argv[i][1]) && !argv[i][2];

			if (argv[i][1] == 'r') {
				i += takes;
				continue;
			}
			append_word(buf, len, argv[i]);
			if (takes && i + 1 < argc)
				append_word(buf, len, argv[++i]);
		}
	}
	append_word(buf, len, "--");
	if (i < argc && !strcmp(argv[i], "--"))
		i++;
	for (; i < argc; i++)
		append_word(buf, len, argv[i]);
}
