/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The cost of a --points hit: calls a small function N times (a point at its
 * entry traps on every call) and prints the time per call, so that the same
 * loop with and without points gives the cost of one hit. With -r, ROUNDS
 * rounds 100 ms apart, one line each: whether points are still there.
 *
 * usage: hitloop [-n CALLS] [-r ROUNDS]
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static volatile unsigned long sink;

static __attribute__((noinline)) void tick(unsigned long i)
{
	sink += i;
}

int main(int argc, char **argv)
{
	unsigned long n = 100000, rounds = 1;
	struct timespec a, b, pause = { 0, 100000000 };
	int c;

	while ((c = getopt(argc, argv, "n:r:")) != -1) {
		if ((c != 'n' && c != 'r') || !strtoul(optarg, NULL, 10)) {
			fprintf(stderr, "usage: hitloop [-n CALLS] [-r ROUNDS]\n");
			return 2;
		}
		*(c == 'n' ? &n : &rounds) = strtoul(optarg, NULL, 10);
	}
	for (unsigned long r = 1; r <= rounds; r++) {
		clock_gettime(CLOCK_MONOTONIC, &a);
		for (unsigned long i = 0; i < n; i++)
			tick(i);
		clock_gettime(CLOCK_MONOTONIC, &b);
		printf("hitloop: round %lu: %lu calls, %.3f us per call\n", r, n,
		       ((b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec)) / 1e3 / n);
		fflush(stdout);
		if (r < rounds)
			nanosleep(&pause, NULL);
	}
	return 0;
}
