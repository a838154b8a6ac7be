/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A lost update in straight-line code. Each round, the "meter" thread tells
 * the "billing" thread that a period is over (a semaphore), then adds the
 * period's usage to the shared total: it reads the total, computes, writes it
 * back, without a lock. Billing first prices the period (a long computation)
 * and only then adds its fee to the same total, the same unlocked way. The
 * author's argument: "billing always needs far longer than the meter's
 * update". True, unless the meter loses its CPU inside its read-compute-write
 * and billing runs meanwhile. No system call and no blocking in the window.
 *
 * usage: lostupdate [-n ROUNDS] [-w WINDOW_US] [-p PRICING_US]
 * Exit status: 0 if the total is right, 1 when an update was lost (the bug),
 * 2 on bad usage.
 */
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "busywork.h"

static long rounds = 50, window_us = 50, pricing_us = 20000;
static volatile long total;
static sem_t period_over, billed;

static void add_to_total(long amount, long work_us)
{
	long t = total;		/* read ... */

	busy_us(work_us);	/* ... compute ... */
	total = t + amount;	/* ... write back: the window ends here */
}

static void *meter(void *arg)
{
	for (long i = 0; i < rounds; i++) {
		sem_wait(&billed);		/* the previous period is billed */
		sem_post(&period_over);
		add_to_total(1, window_us);
	}
	return NULL;
}

static void *billing(void *arg)
{
	for (long i = 0; i < rounds; i++) {
		sem_wait(&period_over);
		busy_us(pricing_us);		/* price the period */
		add_to_total(1000, 0);
		sem_post(&billed);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t m, b;
	int c;

	while ((c = getopt(argc, argv, "n:w:p:")) != -1) {
		switch (c) {
		case 'n': rounds = atol(optarg); break;
		case 'w': window_us = atol(optarg); break;
		case 'p': pricing_us = atol(optarg); break;
		default:
			fprintf(stderr, "usage: lostupdate [-n ROUNDS] [-w WINDOW_US] [-p PRICING_US]\n");
			return 2;
		}
	}
	if (rounds <= 0 || window_us < 0 || pricing_us <= window_us) {
		fprintf(stderr, "lostupdate: need ROUNDS > 0 and PRICING_US > WINDOW_US >= 0\n");
		return 2;
	}
	busy_calibrate();
	sem_init(&period_over, 0, 0);
	sem_init(&billed, 0, 1);
	if (pthread_create(&m, NULL, meter, NULL) || pthread_create(&b, NULL, billing, NULL)) {
		perror("lostupdate: pthread_create");
		return 2;
	}
	pthread_join(m, NULL);
	pthread_join(b, NULL);
	if (total != rounds * 1001) {
		printf("lostupdate: total %ld, expected %ld: an update was lost\n", total, rounds * 1001);
		return 1;
	}
	printf("lostupdate: ok: total %ld after %ld rounds\n", total, rounds);
	return 0;
}
