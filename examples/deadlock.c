/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A lock-order inversion that only bites when one side is slow. Two periodic
 * workers update a pair of accounts: the "transfer" worker locks A then B,
 * the "audit" worker, half a period later, locks B then A. Each holds its
 * first lock across a short blocking step (think: a log write). The code
 * review argument is "they run half a period apart, far longer than the
 * hold time" -- true until one of them is held back at the wrong moment,
 * and then both wait forever.
 *
 * usage: deadlock [-n ITERATIONS] [-p PERIOD_MS] [-H HOLD_MS]
 * Exit status: 0 when all iterations completed; a deadlock hangs (use a
 * timeout: scx_fuzz --timeout S reports it as a hang); 2 on bad usage.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static pthread_mutex_t lock_a = PTHREAD_MUTEX_INITIALIZER, lock_b = PTHREAD_MUTEX_INITIALIZER;
static long iterations = 60, period_ms = 50, hold_ms = 5;
static long balance_a = 1000, balance_b = 1000;
static struct timespec start;

static void at(long ms)
{
	struct timespec t = start;

	t.tv_sec += ms / 1000;
	t.tv_nsec += (ms % 1000) * 1000000L;
	if (t.tv_nsec >= 1000000000L) {
		t.tv_sec++;
		t.tv_nsec -= 1000000000L;
	}
	clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &t, NULL);
}

static void hold(void)
{
	struct timespec t = { 0, hold_ms * 1000000L };

	nanosleep(&t, NULL);
}

static void *transfer(void *arg)
{
	for (long i = 0; i < iterations; i++) {
		at(i * period_ms);
		pthread_mutex_lock(&lock_a);
		hold();
		pthread_mutex_lock(&lock_b);
		balance_a -= 1;
		balance_b += 1;
		pthread_mutex_unlock(&lock_b);
		pthread_mutex_unlock(&lock_a);
	}
	return NULL;
}

static void *audit(void *arg)
{
	long sum = 0;

	for (long i = 0; i < iterations; i++) {
		at(i * period_ms + period_ms / 2);
		pthread_mutex_lock(&lock_b);
		hold();
		pthread_mutex_lock(&lock_a);
		sum = balance_a + balance_b;
		pthread_mutex_unlock(&lock_a);
		pthread_mutex_unlock(&lock_b);
	}
	return (void *)sum;
}

int main(int argc, char **argv)
{
	pthread_t t1, t2;
	void *sum;
	int c;

	while ((c = getopt(argc, argv, "n:p:H:")) != -1) {
		switch (c) {
		case 'n': iterations = atol(optarg); break;
		case 'p': period_ms = atol(optarg); break;
		case 'H': hold_ms = atol(optarg); break;
		default:
			fprintf(stderr, "usage: deadlock [-n ITERATIONS] [-p PERIOD_MS] [-H HOLD_MS]\n");
			return 2;
		}
	}
	if (iterations <= 0 || period_ms < 2 || hold_ms <= 0 || hold_ms >= period_ms / 2) {
		fprintf(stderr, "deadlock: need ITERATIONS > 0, PERIOD_MS >= 2, 0 < HOLD_MS < PERIOD_MS/2\n");
		return 2;
	}
	clock_gettime(CLOCK_MONOTONIC, &start);
	if (pthread_create(&t1, NULL, transfer, NULL) || pthread_create(&t2, NULL, audit, NULL)) {
		perror("deadlock: pthread_create");
		return 2;
	}
	pthread_join(t1, NULL);
	pthread_join(t2, &sum);
	printf("deadlock: ok: %ld iterations, balance %ld\n", iterations, (long)sum);
	return 0;
}
