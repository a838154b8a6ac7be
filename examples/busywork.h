/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CPU work of a given length with no system call in it, for the examples
 * whose race window is straight-line code: a loop calibrated once at start
 * (the clock is read only then), so a window is pure computation.
 */
#ifndef EXAMPLES_BUSYWORK_H
#define EXAMPLES_BUSYWORK_H

#include <time.h>

static double busy_loops_per_us = 1;
static volatile unsigned long busy_sink;

static void busy_loops(unsigned long n)
{
	unsigned long x = busy_sink;

	for (unsigned long i = 0; i < n; i++)
		x = x * 6364136223846793005UL + 1442695040888963407UL;
	busy_sink = x;
}

static double now_us(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

/* Loops per microsecond: the fastest of a few 2 ms samples (interruptions only slow one down). */
static void busy_calibrate(void)
{
	double best = 0;

	for (int i = 0; i < 5; i++) {
		unsigned long n = 0;
		double t0 = now_us(), t;

		do {
			busy_loops(1000);
			n += 1000;
		} while ((t = now_us()) - t0 < 2000);
		if (n / (t - t0) > best)
			best = n / (t - t0);
	}
	busy_loops_per_us = best;
}

/* About `us` microseconds of computation, without a system call. */
static void busy_us(double us)
{
	busy_loops((unsigned long)(us * busy_loops_per_us));
}

#endif /* EXAMPLES_BUSYWORK_H */
