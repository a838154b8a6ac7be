/* SPDX-License-Identifier: GPL-2.0 */
/* The counter-based generator and the delay distributions (include/fuzz_rand.h). */
#include <criterion/criterion.h>
#include <math.h>

#include "fuzz_rand.h"

#define DRAWS 1000000

Test(rand, same_seed_same_stream)
{
	for (__u64 e = 0; e < 1000; e++)
		for (__u32 s = 0; s < FUZZ_NR_SLOTS; s++)
			cr_assert_eq(fuzz_draw(42, 7, e, s), fuzz_draw(42, 7, e, s));
}

/* Streams that differ in seed, key, event or slot share almost no values. */
static unsigned same_in(__u64 seed_a, __u64 key_a, __u64 seed_b, __u64 key_b)
{
	unsigned same = 0;

	for (__u64 e = 0; e < 10000; e++)
		same += fuzz_draw(seed_a, key_a, e, 0) == fuzz_draw(seed_b, key_b, e, 0);
	return same;
}

Test(rand, different_seeds_keys_slots_differ)
{
	cr_assert_eq(same_in(1, 5, 2, 5), 0, "seeds 1 and 2 gave equal draws");
	cr_assert_eq(same_in(1, 5, 1, 6), 0, "keys 5 and 6 gave equal draws");
	cr_assert_eq(same_in(0, 0, 0, 1), 0, "keys 0 and 1 gave equal draws");
	cr_assert_neq(fuzz_draw(1, 1, 3, FUZZ_SLOT_DELAY), fuzz_draw(1, 1, 3, FUZZ_SLOT_SLICE));
	cr_assert_neq(fuzz_child_key(9, 0), fuzz_child_key(9, 1));
	cr_assert_neq(fuzz_child_key(9, 0), fuzz_child_key(10, 0));
}

/* Every output bit is set about half the time, and consecutive events are not correlated. */
Test(rand, bits_balanced)
{
	unsigned ones[64] = { 0 };

	for (__u64 e = 0; e < DRAWS; e++) {
		__u64 r = fuzz_draw(123, 456, e, FUZZ_SLOT_DELAY);

		for (int b = 0; b < 64; b++)
			ones[b] += (r >> b) & 1;
	}
	for (int b = 0; b < 64; b++)
		cr_assert(fabs(ones[b] / (double)DRAWS - 0.5) < 0.005, "bit %d set in %u of %d", b,
			  ones[b], DRAWS);
}

Test(rand, chance_matches_probability)
{
	const __u32 ppms[] = { 0, 1000, 10000, 250000, 500000, 999999, FUZZ_PPM };

	for (unsigned i = 0; i < sizeof(ppms) / sizeof(ppms[0]); i++) {
		unsigned hits = 0;

		for (__u64 e = 0; e < DRAWS; e++)
			hits += fuzz_chance(fuzz_draw(5, 6, e, FUZZ_SLOT_MIGRATE), ppms[i]);
		double p = ppms[i] / (double)FUZZ_PPM, sd = sqrt(p * (1 - p) / DRAWS);

		cr_assert(fabs(hits / (double)DRAWS - p) <= 5 * sd + 1e-9, "ppm %u: %u hits", ppms[i], hits);
	}
}

Test(rand, log2_exp2_accuracy)
{
	for (__u64 x = 1; x < (1ULL << 40); x = x * 3 + 1) {
		double got = fuzz_log2_fix(x) / 65536.0;

		cr_assert(fabs(got - log2((double)x)) < 1e-3, "log2(%llu) = %f", (unsigned long long)x, got);
	}
	for (__u64 y = 0; y < (40ULL << FUZZ_FIX); y += 12345) {
		double want = exp2(y / 65536.0), got = (double)fuzz_exp2_fix(y);

		cr_assert(fabs(got - want) <= want * 2e-4 + 1, "exp2(%f) = %f, want %f", y / 65536.0, got, want);
	}
}

struct moments {
	double mean, below_geo;		/* mean, and the share below the geometric mid-point */
	__u64 min, max;
};

static struct moments sample(__u32 dist, __u64 lo, __u64 hi)
{
	struct moments m = { .min = ~0ULL };
	double sum = 0, geo = sqrt((double)lo * hi);
	unsigned below = 0;

	for (__u64 e = 0; e < DRAWS; e++) {
		__u64 d = fuzz_duration(fuzz_draw(77, 88, e, FUZZ_SLOT_DELAY_LEN), dist, lo, hi);

		sum += d;
		below += d < geo;
		m.min = d < m.min ? d : m.min;
		m.max = d > m.max ? d : m.max;
	}
	m.mean = sum / DRAWS;
	m.below_geo = below / (double)DRAWS;
	return m;
}

Test(rand, uniform_bounds_and_mean)
{
	struct moments m = sample(FUZZ_DIST_UNIFORM, 1000, 5000000);

	cr_assert(m.min >= 1000 && m.max <= 5000000);
	cr_assert(fabs(m.mean - 2500500) / 2500500 < 0.01, "mean %f", m.mean);
	cr_assert(m.min < 1000 + 50000 && m.max > 5000000 - 50000, "does not reach the ends");
}

Test(rand, exponential_bounds_and_mean)
{
	__u64 lo = 10000, hi = 4010000;	/* mean of the unclipped part: lo + 1 000 000 */
	struct moments m = sample(FUZZ_DIST_EXP, lo, hi);
	/* capped at hi: E = lo + mu (1 - e^-4) with mu = (hi - lo) / 4 */
	double want = lo + 1000000.0 * (1 - exp(-4));

	cr_assert(m.min >= lo && m.max <= hi);
	cr_assert(fabs(m.mean - want) / want < 0.01, "mean %f, want %f", m.mean, want);
}

Test(rand, loguniform_bounds_and_shape)
{
	__u64 lo = 10000, hi = 1000000000;	/* 10 us .. 1 s */
	struct moments m = sample(FUZZ_DIST_LOGUNIFORM, lo, hi);
	/* E = (hi - lo) / ln(hi / lo) */
	double want = (hi - lo) / log((double)hi / lo);

	cr_assert(m.min >= lo && m.max <= hi);
	cr_assert(fabs(m.mean - want) / want < 0.02, "mean %f, want %f", m.mean, want);
	cr_assert(fabs(m.below_geo - 0.5) < 0.01, "half the draws lie below the geometric mean: %f",
		  m.below_geo);
}

Test(rand, degenerate_ranges)
{
	for (__u32 d = FUZZ_DIST_UNIFORM; d <= FUZZ_DIST_LOGUNIFORM; d++) {
		cr_assert_eq(fuzz_duration(12345, d, 500, 500), 500);
		cr_assert_eq(fuzz_duration(12345, d, 500, 100), 500);
	}
	cr_assert_eq(fuzz_uniform(~0ULL, 0, ~0ULL - 1) <= ~0ULL - 1, 1);
}

/* Stream draws repeat under a seed, differ between streams, and leave the slot draws as they were. */
Test(rand, streams_are_separate_and_stable)
{
	__u64 seed = 42, key = fuzz_child_key(7, 0);
	int same = 0;

	cr_assert_eq(fuzz_stream_draw(seed, key, FUZZ_STREAM_PREEMPT, 3),
		     fuzz_stream_draw(seed, key, FUZZ_STREAM_PREEMPT, 3));
	for (__u64 n = 0; n < 1000; n++) {
		same += fuzz_stream_draw(seed, key, FUZZ_STREAM_PREEMPT, n) ==
			fuzz_stream_draw(seed, key, FUZZ_STREAM_SERIAL, n);
		for (__u32 slot = 0; slot < FUZZ_NR_SLOTS; slot++)
			same += fuzz_stream_draw(seed, key, FUZZ_STREAM_PREEMPT, n) ==
				fuzz_draw(seed, key, n, slot);
	}
	cr_assert_eq(same, 0);
}

/* PCT change points: d - 1 of them, sorted, within [1, steps], repeatable, spread over the range. */
Test(rand, pct_change_points)
{
	__u64 at[7], again[7], low = 0;

	for (__u64 seed = 0; seed < 2000; seed++) {
		fuzz_pct_change_points(seed, 1000, 7, at);
		fuzz_pct_change_points(seed, 1000, 7, again);
		cr_assert_arr_eq(at, again, sizeof(at));
		for (int i = 0; i < 7; i++) {
			cr_assert(at[i] >= 1 && at[i] <= 1000);
			cr_assert(i == 0 || at[i - 1] <= at[i]);
		}
		low += at[0] <= 500;
	}
	cr_assert(low > 1900, "the first of 7 points falls in the first half almost always (%llu)", low);
	fuzz_pct_change_points(1, 0, 1, at);
	cr_assert_eq(at[0], 1, "no steps known: the first step");
}

/* --events: the preemption at a wake-up or creation is a per-thread, per-event coin of the given odds. */
Test(rand, event_preemption_draw)
{
	unsigned hits = 0, n = 200000;

	for (unsigned i = 0; i < n; i++)
		hits += fuzz_event_preempts(42, 7, i, 200000);
	cr_assert(hits > n / 5 - n / 100 && hits < n / 5 + n / 100, "20%% asked, %u of %u drawn", hits, n);
	cr_assert_eq(fuzz_event_preempts(42, 7, 3, 0), 0, "0 ppm never preempts");
	for (unsigned i = 0; i < 64; i++)
		cr_assert_eq(fuzz_event_preempts(42, 7, i, 500000), fuzz_event_preempts(42, 7, i, 500000),
			     "a pure function of (seed, key, n)");
	hits = 0;
	for (unsigned i = 0; i < 64; i++)
		hits += fuzz_event_preempts(42, 7, i, 500000) != fuzz_event_preempts(43, 7, i, 500000);
	cr_assert_gt(hits, 8, "another seed, other decisions");
}

/* --preempt auto: a timer inside the thread's usual burst, on the drawn share of its runs. */
Test(rand, burst_timer_draw)
{
	unsigned armed = 0, n = 100000, low_half = 0;
	__u64 d;

	for (unsigned run = 0; run < n; run++) {
		d = fuzz_burst_timer_ns(9, 11, run, 200000, 40000, 1000, 100000000);
		if (!d)
			continue;
		armed++;
		cr_assert(d >= 1000 && d <= 40000, "within [1 us, the 40 us burst]: %llu", (unsigned long long)d);
		low_half += d < 20500;
	}
	cr_assert(armed > n / 5 - n / 50 && armed < n / 5 + n / 50, "20%% of runs armed: %u", armed);
	cr_assert(low_half > armed * 45 / 100 && low_half < armed * 55 / 100, "uniform over the burst");
	cr_assert_eq(fuzz_burst_timer_ns(9, 11, 1, 0, 40000, 1000, 100000000), 0, "0 ppm: no timer");
	for (unsigned run = 0; run < 1000; run++) {
		d = fuzz_burst_timer_ns(9, 11, run, 1000000, 10, 1000, 100000000);
		cr_assert_eq(d, 1000, "a burst shorter than the shortest timer gets the shortest");
		d = fuzz_burst_timer_ns(9, 11, run, 1000000, 1ULL << 40, 1000, 5000000);
		cr_assert(d >= 1000 && d <= 5000000, "a long burst is capped");
	}
}

/* Holds: a run's own decade for most, the whole range for the rest; a seed's decade is its own. */
Test(rand, hold_scale_per_run)
{
	const __u64 lo = 1000, hi = 1000000000;	/* 1 us .. 1 s */
	unsigned in_decade, n = 20000, decades_seen = 0;
	__u64 first[8];

	for (__u64 seed = 1; seed <= 8; seed++) {
		__u64 mn = ~0ULL, mx = 0, d;

		in_decade = 0;
		for (unsigned i = 0; i < n; i++) {
			d = fuzz_hold_ns(seed, fuzz_draw(seed, 5, i, FUZZ_SLOT_DELAY_LEN), FUZZ_DIST_LOGUNIFORM,
					 lo, hi, 750000);
			cr_assert(d >= lo && d <= hi, "within [lo, hi]: %llu", (unsigned long long)d);
			if (d < mn)
				mn = d;
			if (d > mx)
				mx = d;
		}
		/* the run's decade: the densest span of x10 among the draws */
		for (unsigned i = 0; i < n; i++) {
			d = fuzz_hold_ns(seed, fuzz_draw(seed, 5, i, FUZZ_SLOT_DELAY_LEN), FUZZ_DIST_LOGUNIFORM,
					 lo, hi, 750000);
			__u64 s = fuzz_hold_ns(seed, 0, FUZZ_DIST_LOGUNIFORM, lo, hi, 1000000);	/* r = 0: its bottom */

			in_decade += d >= s && d <= s * 10 + s / 100;
		}
		first[seed - 1] = fuzz_hold_ns(seed, 0, FUZZ_DIST_LOGUNIFORM, lo, hi, 1000000);
		cr_assert(in_decade > n * 3 / 4, "seed %llu: most holds in the run's decade: %u of %u",
			  (unsigned long long)seed, in_decade, n);
		cr_assert(mn < 10 * lo * 100 || mx > hi / 100, "the rest reaches other scales");
	}
	for (int i = 0; i < 8; i++)
		for (int j = 0; j < i; j++)
			decades_seen += first[i] / first[j] > 3 || first[j] / first[i] > 3;
	cr_assert_gt(decades_seen, 14, "seeds pick different decades");
	for (unsigned i = 0; i < 1000; i++) {
		__u64 d = fuzz_hold_ns(3, fuzz_draw(3, 5, i, 0), FUZZ_DIST_UNIFORM, 1000, 50000, 750000);

		cr_assert(d >= 1000 && d <= 50000, "a range under 2 decades has no run scale");
	}
}

/* --points: each run its own chance to act, log-uniform over the range, a pure function of the seed. */
Test(rand, point_probability_per_run)
{
	unsigned low = 0, high = 0, n = 20000;

	for (__u64 seed = 1; seed <= n; seed++) {
		__u32 p = fuzz_point_ppm(seed, 5000, 500000);

		cr_assert(p >= 5000 && p <= 500000, "%u", p);
		cr_assert_eq(p, fuzz_point_ppm(seed, 5000, 500000));
		low += p < 50000;	/* the lower of two decades */
		high += p >= 50000;
	}
	cr_assert(low > n * 45 / 100 && high > n * 45 / 100, "log-uniform: %u below 5 %%, %u above", low, high);
}
