/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How hard to fuzz: the --intensity presets, the flags that override them,
 * and the checks that keep every perturbation far below the kernel's
 * watchdog. Plain C, unit-tested (tests/unit/test_knobs.c).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "fuzz_rand.h"
#include "knobs.h"
#include "targets.h"

#define US 1000ULL
#define MS (1000 * US)
#define PCT(x) ((uint32_t)((x) * 10000))	/* percent to parts per million */

struct preset {
	const char *name;
	struct fuzz_knobs k;
};

/*
 * low is for production: rare, short delays (<= 1 ms) within a 1% budget.
 * medium is the default: holds at every scale, 1 us to 1 s (log-uniform, so
 * each decade is as likely), at wake-ups, at the wake-ups and creations a
 * target makes (--events) and inside its run bursts (--preempt auto), each
 * thread held at most a share of its wall time beyond a first second.
 * Slices below the kernel's tick (4 ms on Debian) only take effect at the
 * next tick or wake-up.
 */
static const struct preset presets[] = {
	{ "off", { .target_by = 0 } },
	{ "low", { .delay_ppm = PCT(2), .delay_dist = FUZZ_DIST_LOGUNIFORM,
		   .delay_min_ns = 10 * US, .delay_max_ns = 1 * MS, .budget_ppm = PCT(1),
		   .jitter_ns = 500 * US, .slice_min_ns = 1 * MS, .slice_max_ns = 5 * MS,
		   .migrate_ppm = PCT(1) } },
	{ "medium", { .delay_ppm = PCT(20), .delay_dist = FUZZ_DIST_LOGUNIFORM,
		      .delay_min_ns = 1 * US, .delay_max_ns = 1000 * MS, .jitter_ns = 10 * MS,
		      .slice_min_ns = 200 * US, .slice_max_ns = 5 * MS,
		      .migrate_ppm = PCT(10), .far_ppm = PCT(5), .event_ppm = PCT(20), .start_ppm = PCT(50),
		      .scale_ppm = PCT(50),
		      .burst_timer_ppm = PCT(20), .hold_share_ppm = PCT(25) } },
	{ "high", { .delay_ppm = PCT(40), .delay_dist = FUZZ_DIST_LOGUNIFORM,
		    .delay_min_ns = 1 * US, .delay_max_ns = 1000 * MS, .jitter_ns = 20 * MS,
		    .slice_min_ns = 100 * US, .slice_max_ns = 3 * MS,
		    .migrate_ppm = PCT(25), .far_ppm = PCT(10), .event_ppm = PCT(40), .start_ppm = PCT(60),
		    .scale_ppm = PCT(50),
		    .burst_timer_ppm = PCT(40), .hold_share_ppm = PCT(50) } },
	{ "extreme", { .delay_ppm = PCT(70), .delay_dist = FUZZ_DIST_LOGUNIFORM,
		       .delay_min_ns = 1 * US, .delay_max_ns = 1000 * MS, .jitter_ns = 40 * MS,
		       .slice_min_ns = 50 * US, .slice_max_ns = 2 * MS,
		       .migrate_ppm = PCT(50), .far_ppm = PCT(25), .event_ppm = PCT(70), .start_ppm = PCT(80),
		       .scale_ppm = PCT(50),
		       .burst_timer_ppm = PCT(70), .hold_share_ppm = PCT(75) } },
};

/*
 * --mode windows: the original tool's defaults (run 1-100 ms, sleep 10 ms-2 s,
 * 5 ms target slice scaled by the queue); no other perturbation unless asked.
 */
void windows_preset(struct fuzz_knobs *k)
{
	*k = (struct fuzz_knobs){ .mode = FUZZ_MODE_WINDOWS, .scale_slice = 1,
				  .run_min_ns = 1 * MS, .run_max_ns = 100 * MS,
				  .sleep_min_ns = 10 * MS, .sleep_max_ns = 2000 * MS,
				  .slice_min_ns = 5 * MS, .slice_max_ns = 5 * MS };
}

int intensity_preset(const char *name, struct fuzz_knobs *k)
{
	for (size_t i = 0; i < sizeof(presets) / sizeof(presets[0]); i++) {
		if (!strcmp(name, presets[i].name)) {
			*k = presets[i].k;
			return 0;
		}
	}
	return -1;
}

/* "250" (microseconds), "250us", "20ms", "1s", "500ns". */
int parse_duration_ns(const char *s, __u64 *ns)
{
	static const struct { const char *unit; uint64_t mult; } units[] = {
		{ "", US }, { "ns", 1 }, { "us", US }, { "ms", MS }, { "s", 1000 * MS },
	};
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || !(v >= 0) || v > 1e6 || s[0] == '-' || s[0] == '+')
		return -1;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (!strcmp(end, units[i].unit)) {
			*ns = (uint64_t)llround(v * units[i].mult);
			return 0;
		}
	}
	return -1;
}

/* "MIN:MAX", each a duration, MIN <= MAX. */
int parse_range_ns(const char *s, __u64 *lo, __u64 *hi)
{
	const char *colon = strchr(s, ':');
	char first[64];

	if (!colon || (size_t)(colon - s) >= sizeof(first))
		return -1;
	memcpy(first, s, colon - s);
	first[colon - s] = 0;
	if (parse_duration_ns(first, lo) || parse_duration_ns(colon + 1, hi) || *lo > *hi)
		return -1;
	return 0;
}

/* "12.5" or "12.5%" -> 125000 ppm. */
int parse_percent_ppm(const char *s, __u32 *ppm)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || (*end && strcmp(end, "%")) || !(v >= 0) || v > 100)
		return -1;
	*ppm = (uint32_t)llround(v * 10000);
	return 0;
}

int parse_dist(const char *s, __u32 *dist)
{
	if (!strcmp(s, "uniform"))
		*dist = FUZZ_DIST_UNIFORM;
	else if (!strcmp(s, "exp") || !strcmp(s, "exponential"))
		*dist = FUZZ_DIST_EXP;
	else if (!strcmp(s, "loguniform") || !strcmp(s, "log"))
		*dist = FUZZ_DIST_LOGUNIFORM;
	else
		return -1;
	return 0;
}

/*
 * The knobs to load: the preset, then each explicitly given flag. Writes
 * one line to `err` and returns EXIT_USAGE if the result could trip the
 * watchdog or contradicts itself.
 */
int knobs_resolve(const struct fuzz_opts *o, struct fuzz_knobs *k, char *err, size_t err_len)
{
	const struct fuzz_knobs *x = &o->explicit_knobs;
	unsigned set = o->knobs_set;

	if ((o->pct_depth || o->pct_steps) && !o->pct) {
		snprintf(err, err_len, "--depth and --pct-steps need --mode pct");
		return EXIT_USAGE;
	}
	if (o->pct) {
		if (o->intensity) {
			snprintf(err, err_len, "--intensity does not apply to --mode pct (use --depth)");
			return EXIT_USAGE;
		}
		*k = (struct fuzz_knobs){ .mode = FUZZ_MODE_PCT, .serialize = 1,
					  .pct_depth = o->pct_depth ? o->pct_depth : 3 };
	} else if (o->windows) {
		if (o->intensity) {
			snprintf(err, err_len, "--intensity does not apply to --mode windows "
				 "(use --run, --sleep, --slice MIN:MAX)");
			return EXIT_USAGE;
		}
		windows_preset(k);
	} else if (intensity_preset(o->intensity ? o->intensity : "medium", k)) {
		snprintf(err, err_len, "unknown --intensity '%s' (off, low, medium, high, extreme)",
			 o->intensity);
		return EXIT_USAGE;
	} else if (set & (KNOB_RUN | KNOB_SLEEP | KNOB_NO_SCALE)) {
		snprintf(err, err_len, "--run, --sleep and --no-scale-slice need --mode windows");
		return EXIT_USAGE;
	}
	if (set & KNOB_DELAY) {
		k->delay_min_ns = x->delay_min_ns;
		k->delay_max_ns = x->delay_max_ns;
		if (!(set & KNOB_DELAY_PROB) && !k->delay_ppm)
			k->delay_ppm = k->start_ppm = PCT(20);	/* a range alone asks for delays */
	}
	if (set & KNOB_DELAY_PROB)
		k->delay_ppm = x->delay_ppm;
	if (set & KNOB_DELAY_DIST)
		k->delay_dist = x->delay_dist;
	if (set & KNOB_JITTER)
		k->jitter_ns = x->jitter_ns;
	if (set & KNOB_SLICE_RANGE) {
		k->slice_min_ns = x->slice_min_ns;
		k->slice_max_ns = x->slice_max_ns;
	}
	if (set & KNOB_MIGRATE)
		k->migrate_ppm = x->migrate_ppm;
	if (set & KNOB_FAR)
		k->far_ppm = x->far_ppm;
	if (set & KNOB_BUDGET)
		k->budget_ppm = x->budget_ppm;
	if (set & KNOB_RUN) {
		k->run_min_ns = x->run_min_ns;
		k->run_max_ns = x->run_max_ns;
	}
	if (set & KNOB_SLEEP) {
		k->sleep_min_ns = x->sleep_min_ns;
		k->sleep_max_ns = x->sleep_max_ns;
	}
	if (set & KNOB_NO_SCALE)
		k->scale_slice = 0;
	if (set & KNOB_PREEMPT) {	/* a fixed range replaces the burst timers */
		k->preempt_min_ns = x->preempt_min_ns;
		k->preempt_max_ns = x->preempt_max_ns;
		k->burst_timer_ppm = 0;
	}
	if (set & KNOB_PREEMPT_OFF)
		k->burst_timer_ppm = 0;
	if ((set & KNOB_PREEMPT_AUTO) && !k->burst_timer_ppm)
		k->burst_timer_ppm = PCT(20);
	if (set & KNOB_EVENTS)
		k->event_ppm = x->event_ppm;
	if (set & KNOB_STARTS)
		k->start_ppm = x->start_ppm;
	if (set & KNOB_RUN_SCALE)
		k->scale_ppm = x->scale_ppm;
	if (o->points) {	/* every hit is a step under pct; otherwise a share acts */
		k->point_ppm = (set & KNOB_POINT_PROB) ? x->point_ppm : PCT(10);
		k->image_wait_ns = FUZZ_IMAGE_WAIT_NS;	/* the programs the tree runs get theirs */
	} else if (set & KNOB_POINT_PROB) {
		snprintf(err, err_len, "--point-prob needs --points");
		return EXIT_USAGE;
	}
	if (set & KNOB_HOLD_SHARE)
		k->hold_share_ppm = x->hold_share_ppm;
	if (set & KNOB_SERIALIZE)
		k->serialize = 1;
	if ((set & (KNOB_PREEMPT | KNOB_PREEMPT_AUTO | KNOB_SERIALIZE | KNOB_EVENTS | KNOB_STARTS)) && o->windows) {
		snprintf(err, err_len, "--preempt, --events, --starts and --serialize do not apply to --mode windows");
		return EXIT_USAGE;
	}
	if (k->preempt_max_ns &&
	    (k->preempt_min_ns < FUZZ_MIN_PREEMPT_NS || k->preempt_max_ns > FUZZ_MAX_PREEMPT_NS)) {
		snprintf(err, err_len, "--preempt MIN:MAX must lie within 10us:100ms");
		return EXIT_USAGE;
	}
	if (o->windows && (!k->run_min_ns || k->sleep_max_ns > FUZZ_MAX_SLEEP_NS)) {
		snprintf(err, err_len, "--mode windows needs --run above 0 and --sleep at most 2s "
			 "(the kernel's watchdog ejects at %d s)", FUZZ_WATCHDOG_MS / 1000);
		return EXIT_USAGE;
	}

	if (k->delay_ppm && k->delay_max_ns > FUZZ_MAX_DELAY_NS) {
		snprintf(err, err_len, "--delay maximum %.3gs could trip the kernel's %d s watchdog: "
			 "at most 1s", k->delay_max_ns / 1e9, FUZZ_WATCHDOG_MS / 1000);
		return EXIT_USAGE;
	}
	if (k->delay_ppm && !k->delay_max_ns) {
		snprintf(err, err_len, "delays of 0 requested: give --delay MIN:MAX");
		return EXIT_USAGE;
	}
	if (k->jitter_ns > FUZZ_MAX_DELAY_NS) {
		snprintf(err, err_len, "--jitter above 1s could trip the kernel's watchdog");
		return EXIT_USAGE;
	}
	if (k->slice_min_ns && (k->slice_min_ns < FUZZ_MIN_SLICE_NS || k->slice_max_ns > FUZZ_MAX_SLICE_NS)) {
		snprintf(err, err_len, "--slice MIN:MAX must lie within 20us:1s");
		return EXIT_USAGE;
	}
	if (k->budget_ppm && k->delay_ppm &&
	    k->delay_min_ns > k->budget_ppm * (FUZZ_BUDGET_WINDOW_NS / FUZZ_PPM)) {
		snprintf(err, err_len, "--budget %.2g%% allows at most %.3gms of delay per second of run "
			 "time, less than the --delay minimum", k->budget_ppm / 1e4,
			 k->budget_ppm * (FUZZ_BUDGET_WINDOW_NS / FUZZ_PPM) / 1e6);
		return EXIT_USAGE;
	}
	return 0;
}
