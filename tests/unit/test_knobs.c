/* SPDX-License-Identifier: GPL-2.0 */
/* Intensity presets, fuzzing-flag parsers, and the watchdog-safety checks (loader/knobs.c). */
#include <criterion/criterion.h>
#include <string.h>

#include "fuzz.h"
#include "fuzz_rand.h"
#include "knobs.h"
#include "opts.h"
#include "targets.h"

Test(knobs, durations)
{
	__u64 ns, lo, hi;

	cr_assert_eq(parse_duration_ns("250", &ns), 0);
	cr_assert_eq(ns, 250000, "a bare number is microseconds");
	cr_assert(!parse_duration_ns("20ms", &ns) && ns == 20000000);
	cr_assert(!parse_duration_ns("1.5s", &ns) && ns == 1500000000);
	cr_assert(!parse_duration_ns("500ns", &ns) && ns == 500);
	cr_assert(!parse_duration_ns("50us", &ns) && ns == 50000);
	cr_assert_neq(parse_duration_ns("-1ms", &ns), 0);
	cr_assert_neq(parse_duration_ns("5 ms", &ns), 0);
	cr_assert_neq(parse_duration_ns("5h", &ns), 0);
	cr_assert_neq(parse_duration_ns("", &ns), 0);
	cr_assert(!parse_range_ns("50us:20ms", &lo, &hi) && lo == 50000 && hi == 20000000);
	cr_assert_neq(parse_range_ns("20ms:50us", &lo, &hi), 0, "MIN above MAX");
	cr_assert_neq(parse_range_ns("20ms", &lo, &hi), 0);
	cr_assert_neq(parse_range_ns(":5ms", &lo, &hi), 0);
}

Test(knobs, percents_and_dists)
{
	__u32 v;

	cr_assert(!parse_percent_ppm("12.5", &v) && v == 125000);
	cr_assert(!parse_percent_ppm("1%", &v) && v == 10000);
	cr_assert(!parse_percent_ppm("100", &v) && v == FUZZ_PPM);
	cr_assert_neq(parse_percent_ppm("101", &v), 0);
	cr_assert_neq(parse_percent_ppm("-1", &v), 0);
	cr_assert_neq(parse_percent_ppm("x", &v), 0);
	cr_assert(!parse_dist("exp", &v) && v == FUZZ_DIST_EXP);
	cr_assert(!parse_dist("loguniform", &v) && v == FUZZ_DIST_LOGUNIFORM);
	cr_assert_neq(parse_dist("gauss", &v), 0);
}

/* Every preset is safe as it is, and intensity grows monotonically. */
Test(knobs, presets_are_safe_and_ordered)
{
	const char *names[] = { "off", "low", "medium", "high", "extreme" };
	struct fuzz_knobs prev = { 0 }, k;

	for (int i = 0; i < 5; i++) {
		struct fuzz_opts o = { .intensity = names[i] };
		char err[256];

		cr_assert_eq(knobs_resolve(&o, &k, err, sizeof(err)), 0, "%s: %s", names[i], err);
		cr_assert_leq(k.delay_max_ns, FUZZ_MAX_DELAY_NS, "%s", names[i]);
		cr_assert_geq(k.delay_ppm, prev.delay_ppm, "%s", names[i]);
		cr_assert_geq(k.delay_max_ns, prev.delay_max_ns, "%s", names[i]);
		cr_assert_geq(k.far_ppm, prev.far_ppm, "%s", names[i]);
		prev = k;
	}
	struct fuzz_opts low = { .intensity = "low" };
	char err[256];

	knobs_resolve(&low, &k, err, sizeof(err));
	cr_assert_eq(k.budget_ppm, 10000, "low keeps a 1%% budget");
	cr_assert_leq(k.delay_max_ns, 1000000, "low's delays are at most 1 ms");
	cr_assert_eq(intensity_preset("wild", &k), -1);
}

Test(knobs, explicit_flags_override_the_preset)
{
	struct fuzz_opts o = { .intensity = "off", .knobs_set = KNOB_DELAY | KNOB_FAR };
	struct fuzz_knobs k;
	char err[256];

	o.explicit_knobs.delay_min_ns = 1000;
	o.explicit_knobs.delay_max_ns = 2000;
	o.explicit_knobs.far_ppm = 5;
	cr_assert_eq(knobs_resolve(&o, &k, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(k.delay_min_ns, 1000);
	cr_assert_eq(k.far_ppm, 5);
	cr_assert_gt(k.delay_ppm, 0, "a --delay range alone turns delays on");
	cr_assert_eq(k.migrate_ppm, 0, "the rest of 'off' stays off");
}

Test(knobs, unsafe_combinations_refused)
{
	struct fuzz_opts o = { .knobs_set = KNOB_DELAY };
	struct fuzz_knobs k;
	char err[256];

	o.explicit_knobs.delay_max_ns = 2 * FUZZ_MAX_DELAY_NS;
	cr_assert_eq(knobs_resolve(&o, &k, err, sizeof(err)), EXIT_USAGE);
	cr_assert(strstr(err, "watchdog"), "%s", err);

	o = (struct fuzz_opts){ .knobs_set = KNOB_BUDGET | KNOB_DELAY };
	o.explicit_knobs.budget_ppm = 10000;	/* 1%: 10 ms per second of run time */
	o.explicit_knobs.delay_min_ns = 20000000;
	o.explicit_knobs.delay_max_ns = 30000000;
	cr_assert_eq(knobs_resolve(&o, &k, err, sizeof(err)), EXIT_USAGE);
	cr_assert(strstr(err, "--budget"), "%s", err);

	o = (struct fuzz_opts){ .knobs_set = KNOB_SLICE_RANGE };
	o.explicit_knobs.slice_min_ns = 1000;
	o.explicit_knobs.slice_max_ns = 2000000;
	cr_assert_eq(knobs_resolve(&o, &k, err, sizeof(err)), EXIT_USAGE);
}

Test(knobs, excluded_thread_names)
{
	static char *cmd[] = { "true", NULL };
	struct fuzz_opts o = { .cmd = cmd, .java = true, .nr_excludes = 2,
			       .excludes = { "worker*", "exactly-this-15" } };
	struct fuzz_knobs k = { 0 };
	char err[128];
	unsigned n;

	cr_assert_eq(targets_resolve(&o, &k, err, sizeof(err)), 0, "%s", err);
	n = k.nr_excludes;
	cr_assert_gt(n, 8, "--java excludes the JVM's compiler, GC and VM threads");
	cr_assert_str_eq(k.exclude[0], "C1 ", "'C1 *': prefix 'C1 '");
	cr_assert(k.exclude_prefix & 1);
	cr_assert_str_eq(k.exclude[n - 2], "worker");
	cr_assert(k.exclude_prefix & (1U << (n - 2)));
	cr_assert_str_eq(k.exclude[n - 1], "exactly-this-15");
	cr_assert_not(k.exclude_prefix & (1U << (n - 1)), "no '*': the whole name");
	cr_assert_eq(k.target_by, FUZZ_TARGET_TREE, "exclusions do not add targets");

	o.nr_excludes = FUZZ_MAX_EXCLUDES;
	for (unsigned i = 0; i < FUZZ_MAX_EXCLUDES; i++)
		o.excludes[i] = "x";
	cr_assert_eq(targets_resolve(&o, &k, err, sizeof(err)), EXIT_USAGE, "too many with --java");
	cr_assert(strstr(err, "too many"));
}

Test(knobs, windows_mode)
{
	struct fuzz_opts o = { .windows = true };
	struct fuzz_knobs k;
	char err[160];

	cr_assert_eq(knobs_resolve(&o, &k, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(k.mode, FUZZ_MODE_WINDOWS);
	cr_assert(k.run_min_ns == 1000000 && k.run_max_ns == 100000000, "the original's --run 1ms:100ms");
	cr_assert(k.sleep_min_ns == 10000000 && k.sleep_max_ns == 2000000000ULL, "--sleep 10ms:2s");
	cr_assert(k.scale_slice && k.slice_min_ns == 5000000 && k.slice_max_ns == 5000000);
	cr_assert(!k.delay_ppm && !k.jitter_ns && !k.migrate_ppm, "nothing else unless asked");

	o.knobs_set = KNOB_SLEEP | KNOB_NO_SCALE | KNOB_MIGRATE;
	o.explicit_knobs.sleep_min_ns = 1000000;
	o.explicit_knobs.sleep_max_ns = 3000000000ULL;
	o.explicit_knobs.migrate_ppm = 50000;
	cr_assert_eq(knobs_resolve(&o, &k, err, sizeof(err)), EXIT_USAGE, "sleep windows above 2 s");
	cr_assert(strstr(err, "watchdog"), "%s", err);
	o.explicit_knobs.sleep_max_ns = 500000000;
	cr_assert_eq(knobs_resolve(&o, &k, err, sizeof(err)), 0, "%s", err);
	cr_assert(!k.scale_slice && k.migrate_ppm == 50000 && k.sleep_max_ns == 500000000);

	o.intensity = "high";
	cr_assert_eq(knobs_resolve(&o, &k, err, sizeof(err)), EXIT_USAGE, "--intensity is for --mode perturb");
	o = (struct fuzz_opts){ .knobs_set = KNOB_RUN };
	cr_assert_eq(knobs_resolve(&o, &k, err, sizeof(err)), EXIT_USAGE, "--run needs --mode windows");
}

/* --preempt MIN:MAX and --serialize reach the knobs; out-of-range timers and windows mode are refused. */
Test(knobs, preempt_and_serialize)
{
	char *ok_argv[] = { "scx_fuzz", "--serialize", "--preempt", "20us:500us", "--", "x", NULL };
	char *slow_argv[] = { "scx_fuzz", "--preempt", "1ms:1s", "--", "x", NULL };
	char *fast_argv[] = { "scx_fuzz", "--preempt", "1us:5us", "--", "x", NULL };
	char *win_argv[] = { "scx_fuzz", "--mode", "windows", "--serialize", "--", "x", NULL };
	struct fuzz_opts o;
	struct fuzz_knobs k;
	char err[256];
	bool done;

	cr_assert_eq(parse_opts(6, ok_argv, &o, &done, stdout), 0);
	cr_assert_eq(knobs_resolve(&o, &k, err, sizeof(err)), 0, "%s", err);
	cr_assert(k.serialize && k.preempt_min_ns == 20000 && k.preempt_max_ns == 500000);
	cr_assert_gt(k.delay_ppm, 0, "the preset's other perturbations stay");
	cr_assert_eq(parse_opts(5, slow_argv, &o, &done, stdout), 0);
	cr_assert_eq(knobs_resolve(&o, &k, err, sizeof(err)), EXIT_USAGE, "a 1 s timer is no sub-tick preemption");
	cr_assert_eq(parse_opts(5, fast_argv, &o, &done, stdout), 0);
	cr_assert_eq(knobs_resolve(&o, &k, err, sizeof(err)), EXIT_USAGE, "1 us timers would swamp the CPU");
	cr_assert_eq(parse_opts(6, win_argv, &o, &done, stdout), 0);
	cr_assert_eq(knobs_resolve(&o, &k, err, sizeof(err)), EXIT_USAGE);
	cr_assert(strstr(err, "windows"), "%s", err);

	struct fuzz_opts plain = { 0 };

	cr_assert_eq(knobs_resolve(&plain, &k, err, sizeof(err)), 0);
	cr_assert(!k.serialize && !k.preempt_max_ns, "off unless asked for");
}

/* --mode pct serializes and takes --depth; the flags that do not fit it are refused. */
Test(knobs, pct_mode)
{
	char *pct_argv[] = { "scx_fuzz", "--mode", "pct", "--depth", "2", "--", "x", NULL };
	char *plain_argv[] = { "scx_fuzz", "--mode", "pct", "--", "x", NULL };
	char *depth_argv[] = { "scx_fuzz", "--depth", "2", "--", "x", NULL };
	char *deep_argv[] = { "scx_fuzz", "--mode", "pct", "--depth", "9", "--", "x", NULL };
	char *mixed_argv[] = { "scx_fuzz", "--mode", "pct", "-i", "high", "--", "x", NULL };
	struct fuzz_opts o;
	struct fuzz_knobs k;
	char err[256];
	bool done;

	cr_assert_eq(parse_opts(7, pct_argv, &o, &done, stdout), 0);
	cr_assert_eq(knobs_resolve(&o, &k, err, sizeof(err)), 0, "%s", err);
	cr_assert(k.mode == FUZZ_MODE_PCT && k.serialize && k.pct_depth == 2);
	cr_assert_eq(k.delay_ppm, 0, "pct is a priority scheduler: no held wake-ups unless asked");
	cr_assert_eq(parse_opts(5, plain_argv, &o, &done, stdout), 0);
	cr_assert_eq(knobs_resolve(&o, &k, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(k.pct_depth, 3, "depth 3 by default");
	cr_assert_eq(parse_opts(5, depth_argv, &o, &done, stdout), 0);
	cr_assert_eq(knobs_resolve(&o, &k, err, sizeof(err)), EXIT_USAGE, "--depth without --mode pct");
	cr_assert_eq(parse_opts(7, deep_argv, &o, &done, stdout), EXIT_USAGE);
	cr_assert_eq(parse_opts(7, mixed_argv, &o, &done, stdout), 0);
	cr_assert_eq(knobs_resolve(&o, &k, err, sizeof(err)), EXIT_USAGE);
}

/* Event preemptions, burst timers and the hold share: on from medium, each flag overrides, all checked. */
Test(knobs, events_bursts_and_hold_share)
{
	char *auto_argv[] = { "scx_fuzz", "-i", "low", "--preempt", "auto", "--", "x", NULL };
	char *off_argv[] = { "scx_fuzz", "--preempt", "off", "--events", "0", "--hold-share", "0", "--", "x", NULL };
	char *fixed_argv[] = { "scx_fuzz", "--preempt", "20us:500us", "--", "x", NULL };
	char *bad_argv[] = { "scx_fuzz", "--events", "150", "--", "x", NULL };
	char *bad_pre_argv[] = { "scx_fuzz", "--preempt", "sometimes", "--", "x", NULL };
	char *win_argv[] = { "scx_fuzz", "--mode", "windows", "--events", "10", "--", "x", NULL };
	struct fuzz_opts o, plain = { 0 };
	struct fuzz_knobs k;
	char err[256];
	bool done;

	cr_assert_eq(knobs_resolve(&plain, &k, err, sizeof(err)), 0);
	cr_assert(k.event_ppm && k.burst_timer_ppm && k.hold_share_ppm, "on by default (medium)");
	cr_assert(k.delay_min_ns <= 1000 && k.delay_max_ns == FUZZ_MAX_DELAY_NS, "holds at every scale, 1 us to 1 s");
	cr_assert_eq(parse_opts(7, auto_argv, &o, &done, stdout), 0);
	cr_assert_eq(knobs_resolve(&o, &k, err, sizeof(err)), 0, "%s", err);
	cr_assert(k.burst_timer_ppm && !k.preempt_max_ns, "--preempt auto turns burst timers on");
	cr_assert_eq(k.budget_ppm, 10000, "low keeps its budget");
	cr_assert_eq(parse_opts(9, off_argv, &o, &done, stdout), 0);
	cr_assert_eq(knobs_resolve(&o, &k, err, sizeof(err)), 0, "%s", err);
	cr_assert(!k.burst_timer_ppm && !k.preempt_max_ns && !k.event_ppm && !k.hold_share_ppm);
	cr_assert_eq(parse_opts(5, fixed_argv, &o, &done, stdout), 0);
	cr_assert_eq(knobs_resolve(&o, &k, err, sizeof(err)), 0, "%s", err);
	cr_assert(!k.burst_timer_ppm && k.preempt_max_ns == 500000, "a fixed range replaces the burst timers");
	cr_assert_eq(parse_opts(5, bad_argv, &o, &done, stdout), EXIT_USAGE);
	cr_assert_eq(parse_opts(5, bad_pre_argv, &o, &done, stdout), EXIT_USAGE);
	cr_assert_eq(parse_opts(7, win_argv, &o, &done, stdout), 0);
	cr_assert_eq(knobs_resolve(&o, &k, err, sizeof(err)), EXIT_USAGE, "--events is not the original tool's");
}
