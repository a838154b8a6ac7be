/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every random decision scx_fuzz makes, as plain integer C shared by the BPF
 * scheduler and the host (Criterion tests it directly; no floating point,
 * which BPF lacks).
 *
 * The generator is counter-based: a draw is a pure function of (seed, a
 * stable per-thread key, that thread's event number, the decision's slot), so
 * a thread that sees the same sequence of scheduling events draws the same
 * decisions whichever CPU runs it and however other threads interleave.
 */
#ifndef FUZZ_RAND_H
#define FUZZ_RAND_H

#ifdef __bpf__
#include "vmlinux.h"
#else
#include <linux/types.h>
#endif

/* The kinds of decision drawn at one scheduling event; each has its own slot. */
enum fuzz_slot {
	FUZZ_SLOT_DELAY,	/* hold this wake-up back? */
	FUZZ_SLOT_DELAY_LEN,	/* for how long */
	FUZZ_SLOT_JITTER,	/* vtime jitter: the run-order shuffle */
	FUZZ_SLOT_SLICE,	/* random slice: where preemption falls */
	FUZZ_SLOT_MIGRATE,	/* force a move to another LLC? */
	FUZZ_SLOT_FAR,		/* force a move to the farthest node? */
	FUZZ_SLOT_WHERE,	/* which CPU / LLC / node to move to */
	FUZZ_SLOT_RUN_LEN,	/* --mode windows: a running window's length (DELAY: the first
				 * window's kind, DELAY_LEN: a sleeping window's length) */
	FUZZ_NR_SLOTS = 8,
};

enum fuzz_dist {
	FUZZ_DIST_UNIFORM,	/* every duration in [min, max] equally likely */
	FUZZ_DIST_EXP,		/* min + exponential of mean (max - min) / 4, capped at max */
	FUZZ_DIST_LOGUNIFORM,	/* log(duration) uniform: as many 10-100 us as 10-100 ms (heavy tail) */
};

/* BPF passes at most 5 arguments: helpers that take more are always inlined. */
#define FUZZ_INLINE static inline __attribute__((always_inline))

#define FUZZ_PPM 1000000u	/* probabilities are in parts per million */
#define FUZZ_FIX 16		/* fixed-point fraction bits of the log2/exp2 helpers */
#define FUZZ_LOG2_10_FIX 217706	/* log2(10) in FUZZ_FIX fixed point: one decade */

/* A strong 64-bit mixer (the murmur3/splitmix finaliser): every input bit moves every output bit. */
static inline __u64 fuzz_mix64(__u64 x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	x ^= x >> 33;
	return x;
}

/* Draw number `slot` of event `event` of the thread `key`, under `seed`. */
static inline __u64 fuzz_draw(__u64 seed, __u64 key, __u64 event, __u32 slot)
{
	__u64 x = fuzz_mix64(seed ^ 0x9e3779b97f4a7c15ULL);

	x = fuzz_mix64(x ^ key);
	return fuzz_mix64(x ^ (event * FUZZ_NR_SLOTS + slot));
}

/*
 * Decisions outside the per-event slots (--preempt timers, --serialize order)
 * draw from their own streams: a derived key, so the slots' draws stay as they were.
 */
enum fuzz_stream {
	FUZZ_STREAM_PREEMPT = 1,	/* n-th run: when its preemption timer fires */
	FUZZ_STREAM_SERIAL = 2,		/* n-th event: its place among the waiting targets */
	FUZZ_STREAM_PCT = 3,		/* 0: its --mode pct priority; n: the n-th run's change moment */
	FUZZ_STREAM_PCT_STEPS = 4,	/* the run's change points (key 0) */
	FUZZ_STREAM_EVENT = 5,		/* n-th target it woke or created: preempt it there? */
	FUZZ_STREAM_SCALE = 6,		/* the run's own scale of holds (key 0) */
	FUZZ_STREAM_POINT = 7,		/* n-th point it reached: preempt it there? */
	FUZZ_STREAM_POINT_PROB = 8,	/* the run's own point probability (key 0) */
};

static inline __u64 fuzz_stream_draw(__u64 seed, __u64 key, __u32 stream, __u64 n)
{
	return fuzz_draw(seed, fuzz_mix64(key + stream * 0x9e3779b97f4a7c15ULL), n, 0);
}

/* The key of the n-th thread or process created by the thread with key `parent`. */
static inline __u64 fuzz_child_key(__u64 parent, __u64 n)
{
	return fuzz_mix64(parent * 0x100000001b3ULL + n + 1);
}

/* True with probability ppm / 10^6. */
static inline int fuzz_chance(__u64 r, __u32 ppm)
{
	return (r >> 20) % FUZZ_PPM < ppm;
}

/* Uniform in [lo, hi] (hi >= lo); the modulo bias is below 2^-20 for spans under 2^44. */
static inline __u64 fuzz_uniform(__u64 r, __u64 lo, __u64 hi)
{
	return hi <= lo ? lo : lo + r % (hi - lo + 1);
}

/* Index of the highest set bit of x > 0. */
static inline __u32 fuzz_msb(__u64 x)
{
	__u32 n = 0;
	int i;

	for (i = 32; i > 0; i >>= 1) {
		if (x >> i) {
			x >>= i;
			n += i;
		}
	}
	return n;
}

/* log2(x) in FUZZ_FIX fixed point, x >= 1, by repeated squaring of the mantissa. */
static inline __u64 fuzz_log2_fix(__u64 x)
{
	__u32 e = fuzz_msb(x), i;
	__u64 m, res = (__u64)e << FUZZ_FIX;

	/* mantissa in [1, 2) as 1.31 fixed point */
	m = e >= 31 ? x >> (e - 31) : x << (31 - e);
	for (i = 0; i < FUZZ_FIX; i++) {
		m = (m * m) >> 31;
		if (m >= (2ULL << 31)) {
			m >>= 1;
			res |= 1ULL << (FUZZ_FIX - 1 - i);
		}
	}
	return res;
}

/* 2^(y / 2^FUZZ_FIX), for results below 2^62; a cubic for the fraction (error < 0.01%). */
static inline __u64 fuzz_exp2_fix(__u64 y)
{
	__u64 ip = y >> FUZZ_FIX, f = y & ((1u << FUZZ_FIX) - 1), p;

	if (ip > 61)
		return 1ULL << 62;
	/* 2^f ~ 1 + f(0.695976 + f(0.224130 + f 0.079894)), f in [0, 1), coefficients in 2^-16 */
	p = 5236;
	p = 14689 + ((p * f) >> FUZZ_FIX);
	p = 45611 + ((p * f) >> FUZZ_FIX);
	p = (1u << FUZZ_FIX) + ((p * f) >> FUZZ_FIX);
	return ip >= FUZZ_FIX ? p << (ip - FUZZ_FIX) : p >> (FUZZ_FIX - ip);
}

/* A duration in [lo, hi] drawn from `dist` (enum fuzz_dist) using the random word r. */
static inline __u64 fuzz_duration(__u64 r, __u32 dist, __u64 lo, __u64 hi)
{
	__u64 a, b, x;

	if (hi <= lo)
		return lo;
	switch (dist) {
	case FUZZ_DIST_EXP:
		/* -ln(u) = ln2 * -log2(u), u = (r | 1) / 2^64 in (0, 1]; ln2 = 45426 / 2^16 */
		x = ((64ULL << FUZZ_FIX) - fuzz_log2_fix(r | 1)) * 45426 >> FUZZ_FIX;
		x = lo + (((hi - lo) / 4) * x >> FUZZ_FIX);
		return x > hi ? hi : x;
	case FUZZ_DIST_LOGUNIFORM:
		a = fuzz_log2_fix(lo ? lo : 1);
		b = fuzz_log2_fix(hi);
		x = fuzz_exp2_fix(fuzz_uniform(r, a, b));
		return x < lo ? lo : x > hi ? hi : x;
	default:
		return fuzz_uniform(r, lo, hi);
	}
}

/*
 * A hold's length. Each run has a scale of its own: one decade of [lo, hi]
 * drawn log-uniformly from the seed. A share `scale_ppm` of the holds is
 * drawn within it, the rest from `dist` over all of [lo, hi]: holds of one
 * size keep a run's threads comparable (which of two held threads comes back
 * first is a coin toss, whatever the scale), and the rest still reaches
 * every scale in every run.
 */
FUZZ_INLINE __u64 fuzz_hold_ns(__u64 seed, __u64 r, __u32 dist, __u64 lo, __u64 hi, __u32 scale_ppm)
{
	__u64 a, b, s, x;

	if (!scale_ppm || hi < 100 * (lo ? lo : 1) || !fuzz_chance(r, scale_ppm))
		return fuzz_duration(fuzz_mix64(r), dist, lo, hi);
	/* in log space: no logarithm of a drawn value (the BPF verifier would walk every path) */
	a = fuzz_log2_fix(lo ? lo : 1);
	b = fuzz_log2_fix(hi);
	s = fuzz_uniform(fuzz_stream_draw(seed, 0, FUZZ_STREAM_SCALE, 0), a, b - FUZZ_LOG2_10_FIX);
	x = fuzz_exp2_fix(fuzz_uniform(fuzz_mix64(r), s, s + FUZZ_LOG2_10_FIX));
	return x < lo ? lo : x > hi ? hi : x;
}

/*
 * --points: a run's own chance of acting at a point hit, log-uniform in
 * [lo, hi] ppm. A bug that needs one thread stopped in a short stretch while
 * another runs through a long one is likeliest when the chance is about one
 * over the points on the rival's path, which nobody knows beforehand: some
 * runs stop threads rarely, others often.
 */
static inline __u32 fuzz_point_ppm(__u64 seed, __u32 lo, __u32 hi)
{
	return fuzz_duration(fuzz_stream_draw(seed, 0, FUZZ_STREAM_POINT_PROB, 0), FUZZ_DIST_LOGUNIFORM, lo, hi);
}

/*
 * Preempt the thread `key` at the n-th wake-up or creation of another target
 * it makes? True with probability ppm / 10^6.
 */
static inline int fuzz_event_preempts(__u64 seed, __u64 key, __u64 n, __u32 ppm)
{
	return ppm && fuzz_chance(fuzz_stream_draw(seed, key, FUZZ_STREAM_EVENT, n), ppm);
}

/*
 * --preempt auto, the thread `key`'s run number `run`: with probability
 * ppm / 10^6, a timer uniform in [min_ns, burst_ns] (its usual run length,
 * clamped to [min_ns, max_ns]), else 0: no timer this run.
 */
FUZZ_INLINE __u64 fuzz_burst_timer_ns(__u64 seed, __u64 key, __u64 run, __u32 ppm, __u64 burst_ns,
					__u64 min_ns, __u64 max_ns)
{
	__u64 r = fuzz_stream_draw(seed, key, FUZZ_STREAM_PREEMPT, run);

	if (!ppm || !fuzz_chance(r, ppm))
		return 0;
	burst_ns = burst_ns < min_ns ? min_ns : burst_ns > max_ns ? max_ns : burst_ns;
	return fuzz_uniform(fuzz_mix64(r), min_ns, burst_ns);
}

/*
 * --mode pct: the run's change points, `n` steps drawn uniformly from
 * [1, steps] and sorted (PCT's k_1 <= ... <= k_{d-1}).
 */
static inline void fuzz_pct_change_points(__u64 seed, __u64 steps, __u32 n, __u64 *out)
{
	for (__u32 i = 0; i < n; i++) {
		__u64 v = fuzz_uniform(fuzz_stream_draw(seed, 0, FUZZ_STREAM_PCT_STEPS, i), 1,
				       steps ? steps : 1);
		__u32 j = i;

		for (; j > 0 && out[j - 1] > v; j--)	/* insertion sort: n < 8 */
			out[j] = out[j - 1];
		out[j] = v;
	}
}

#endif /* FUZZ_RAND_H */
