/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The cost of a --points hit: calls a small function N times (a point at its
 * entry traps on every call) and prints the time per call, so that the same
 * loop with and without points gives the cost of one hit. With -r, ROUNDS
 * rounds 100 ms apart, one line each: whether points are still there. With
 * -f the loop runs in a child it forks (no exec): whether a fork has points.
 *
 * usage: hitloop [-f] [-n CALLS] [-r ROUNDS]
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile unsigned long sink;

static __attribute__((noinline)) void tick(unsigned long i)
{
	sink += i;
}

int main(int argc, char **argv)
{
	unsigned long n = 100000, rounds = 1;
	int forked = 0;
	struct timespec a, b, pause = { 0, 100000000 };
	int c, status;
	pid_t child;

	while ((c = getopt(argc, argv, "fn:r:")) != -1) {
		if (c == 'f') {
			forked = 1;
			continue;
		}
		if ((c != 'n' && c != 'r') || !strtoul(optarg, NULL, 10)) {
			fprintf(stderr, "usage: hitloop [-f] [-n CALLS] [-r ROUNDS]\n");
			return 2;
		}
		*(c == 'n' ? &n : &rounds) = strtoul(optarg, NULL, 10);
	}
	if (forked && (child = fork()) != 0) {
		if (child < 0 || waitpid(child, &status, 0) != child) {
			perror("hitloop: fork");
			return 1;
		}
		return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
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
