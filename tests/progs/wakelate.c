/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How late does a short sleep wake up on this machine? Each round starts a
 * fresh thread that sleeps SLEEP_US (as the examples' racing threads do) and
 * records how much longer than that it took. A race program's timing window
 * must be well above the tail printed here, or the default scheduler alone
 * will "find" it (docs/testing.md, "Calibrating a race program").
 *
 * usage: wakelate [-s SECONDS] [-u SLEEP_US]
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static const long bounds_us[] = { 1000, 3000, 5000, 8000, 10000, 15000, 20000 };
#define NR_BOUNDS (sizeof(bounds_us) / sizeof(bounds_us[0]))

static long sleep_us = 100;
static long long late_us;

static long long now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000000000LL + t.tv_nsec;
}

static void *sleeper(void *arg)
{
	struct timespec t = { sleep_us / 1000000, (sleep_us % 1000000) * 1000 };
	long long start = now_ns();

	nanosleep(&t, NULL);
	late_us = (now_ns() - start) / 1000 - sleep_us;
	return NULL;
}

int main(int argc, char **argv)
{
	long seconds = 30, rounds = 0, above[NR_BOUNDS] = { 0 };
	long long worst = 0, end;
	pthread_t t;
	int c;

	while ((c = getopt(argc, argv, "s:u:")) != -1) {
		switch (c) {
		case 's': seconds = atol(optarg); break;
		case 'u': sleep_us = atol(optarg); break;
		default:
			fprintf(stderr, "usage: wakelate [-s SECONDS] [-u SLEEP_US]\n");
			return 2;
		}
	}
	if (seconds <= 0 || sleep_us <= 0 || sleep_us >= 1000000) {
		fprintf(stderr, "wakelate: need SECONDS > 0 and 0 < SLEEP_US < 1000000\n");
		return 2;
	}
	for (end = now_ns() + seconds * 1000000000LL; now_ns() < end; rounds++) {
		if (pthread_create(&t, NULL, sleeper, NULL)) {
			perror("wakelate: pthread_create");
			return 2;
		}
		pthread_join(t, NULL);
		worst = late_us > worst ? late_us : worst;
		for (size_t i = 0; i < NR_BOUNDS; i++)
			above[i] += late_us > bounds_us[i];
	}
	printf("wakelate: %ld rounds of %ld us sleeps, worst %lld us late; rounds later than", rounds,
	       sleep_us, worst);
	for (size_t i = 0; i < NR_BOUNDS; i++)
		printf(" %ldms:%ld", bounds_us[i] / 1000, above[i]);
	printf("\n");
	return 0;
}
