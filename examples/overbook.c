/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Check-then-act on shared state: booking agents sell seats. Each reads
 * which seat is next, talks to the (slow) payment service, then sells that
 * seat and moves the counter on. Requests arrive spaced out, one agent at a
 * time in practice, so the unlocked gap between the check and the act looks
 * harmless -- until an agent is held back after the payment call and the
 * next request is served in the meantime: one seat is sold twice.
 *
 * usage: overbook [-a AGENTS] [-s SEATS] [-g GAP_US] [-p PAYMENT_US]
 * Exit status: 0 if no seat was sold twice, 1 when one was (the bug),
 * 2 on bad usage.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static long agents = 4, seats = 100, gap_us = 20000, payment_us = 100;
static volatile long next_seat;
static unsigned char *sold;
static pthread_mutex_t ticket_lock = PTHREAD_MUTEX_INITIALIZER;
static long next_ticket;
static struct timespec start;

static void sleep_us(long us)
{
	struct timespec t = { us / 1000000, (us % 1000000) * 1000 };

	nanosleep(&t, NULL);
}

/* Requests come in every gap_us, handed to agents in turn. */
static void wait_for_request(long n)
{
	struct timespec t = start;
	long long ns = t.tv_nsec + n * gap_us * 1000LL;

	t.tv_sec += ns / 1000000000LL;
	t.tv_nsec = ns % 1000000000LL;
	clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &t, NULL);
}

static void *agent(void *arg)
{
	for (;;) {
		long n;

		pthread_mutex_lock(&ticket_lock);
		n = next_ticket++;
		pthread_mutex_unlock(&ticket_lock);
		if (n >= seats)
			return NULL;
		wait_for_request(n);
		long seat = next_seat;		/* check ... */

		sleep_us(payment_us);		/* the payment service */
		if (sold[seat]++) {		/* ... then act: nothing held in between */
			printf("overbook: race hit: seat %ld sold twice (request %ld)\n", seat, n);
			exit(1);
		}
		next_seat = seat + 1;
	}
}

int main(int argc, char **argv)
{
	pthread_t t[64];
	int c;

	while ((c = getopt(argc, argv, "a:s:g:p:")) != -1) {
		switch (c) {
		case 'a': agents = atol(optarg); break;
		case 's': seats = atol(optarg); break;
		case 'g': gap_us = atol(optarg); break;
		case 'p': payment_us = atol(optarg); break;
		default:
			fprintf(stderr, "usage: overbook [-a AGENTS] [-s SEATS] [-g GAP_US] [-p PAYMENT_US]\n");
			return 2;
		}
	}
	if (agents < 2 || agents > 64 || seats <= 0 || gap_us <= 0 || payment_us <= 0) {
		fprintf(stderr, "overbook: need 2..64 AGENTS and positive SEATS, GAP_US, PAYMENT_US\n");
		return 2;
	}
	sold = calloc(seats + agents, 1);
	if (!sold) {
		perror("overbook");
		return 2;
	}
	clock_gettime(CLOCK_MONOTONIC, &start);
	for (long i = 0; i < agents; i++)
		if (pthread_create(&t[i], NULL, agent, NULL)) {
			perror("overbook: pthread_create");
			return 2;
		}
	for (long i = 0; i < agents; i++)
		pthread_join(t[i], NULL);
	printf("overbook: ok: %ld seats sold once each\n", next_seat);
	return 0;
}
