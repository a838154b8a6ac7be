/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Threads that name themselves after they start, as a JVM's do, then wake up
 * every millisecond for SECONDS: for tests of targeting by thread name.
 *
 * Prints each thread's tid.
 *
 * usage: named [-t SECONDS] NAME...
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static long seconds = 2;

static void *sleeper(void *name)
{
	struct timespec ms = { 0, 1000000 }, now, end;

	if (pthread_setname_np(pthread_self(), name))
		fprintf(stderr, "named: cannot name a thread '%s'\n", (char *)name);
	printf("named: thread '%s' tid %d\n", (char *)name, gettid());
	fflush(stdout);
	clock_gettime(CLOCK_MONOTONIC, &end);
	end.tv_sec += seconds;
	do {
		nanosleep(&ms, NULL);
		clock_gettime(CLOCK_MONOTONIC, &now);
	} while (now.tv_sec < end.tv_sec || (now.tv_sec == end.tv_sec && now.tv_nsec < end.tv_nsec));
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t[16];
	int c, n;

	while ((c = getopt(argc, argv, "t:")) != -1) {
		if (c != 't' || (seconds = atol(optarg)) <= 0) {
			fprintf(stderr, "usage: named [-t SECONDS] NAME...\n");
			return 2;
		}
	}
	n = argc - optind;
	if (n < 1 || n > 16) {
		fprintf(stderr, "named: give 1..16 thread names\n");
		return 2;
	}
	for (int i = 0; i < n; i++) {
		if (strlen(argv[optind + i]) > 15 || pthread_create(&t[i], NULL, sleeper, argv[optind + i])) {
			fprintf(stderr, "named: cannot start thread '%s'\n", argv[optind + i]);
			return 2;
		}
	}
	for (int i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	return 0;
}
