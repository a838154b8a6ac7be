/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Check-then-act on a shared slot. Each round the dispatcher offers one job
 * to two workers through pipes. The first worker passes the word on to the
 * second, then claims the job: it checks that the slot is free, picks a
 * place for the job (a computation), and writes its name into the slot. The
 * second worker first finishes its current job (a long computation), then
 * does the same check and claim. "The first worker always claims long
 * before the second looks" -- unless it loses its CPU between its check and
 * its store. No system call and no blocking between them.
 *
 * usage: checkact [-n ROUNDS] [-w WINDOW_US] [-p BUSY_US]
 * Exit status: 0 if every job had one owner, 1 when both workers claimed the
 * same job (the bug), 2 on bad usage.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "busywork.h"

static long rounds = 50, window_us = 50, busy_for_us = 20000;
static volatile int slot;		/* 0: free, else the owner's number */
static volatile long job;		/* the job on offer */
static int *owners;			/* claims per job, counted after the workers are done */
static int to_first[2], to_second[2], to_dispatcher[2];

static void claim(int me, long think_us)
{
	long j = job;

	if (slot == 0) {		/* check ... */
		busy_us(think_us);	/* ... decide where the job goes ... */
		slot = me;		/* ... act */
		__atomic_add_fetch(&owners[j], 1, __ATOMIC_SEQ_CST);
	}
}

static int get(int fd)
{
	char c;

	return read(fd, &c, 1) == 1 ? 0 : -1;
}

static void put(int fd)
{
	if (write(fd, "j", 1) != 1)
		abort();
}

static void *first_worker(void *arg)
{
	while (!get(to_first[0])) {
		put(to_second[1]);
		claim(1, window_us);
	}
	return NULL;
}

static void *second_worker(void *arg)
{
	while (!get(to_second[0])) {
		busy_us(busy_for_us);	/* finish the current job first */
		claim(2, 0);
		put(to_dispatcher[1]);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t a, b;
	long doubled = 0;
	int c;

	while ((c = getopt(argc, argv, "n:w:p:")) != -1) {
		switch (c) {
		case 'n': rounds = atol(optarg); break;
		case 'w': window_us = atol(optarg); break;
		case 'p': busy_for_us = atol(optarg); break;
		default:
			fprintf(stderr, "usage: checkact [-n ROUNDS] [-w WINDOW_US] [-p BUSY_US]\n");
			return 2;
		}
	}
	if (rounds <= 0 || window_us < 0 || busy_for_us <= window_us) {
		fprintf(stderr, "checkact: need ROUNDS > 0 and BUSY_US > WINDOW_US >= 0\n");
		return 2;
	}
	busy_calibrate();
	owners = calloc(rounds, sizeof(*owners));
	if (!owners || pipe(to_first) || pipe(to_second) || pipe(to_dispatcher) ||
	    pthread_create(&a, NULL, first_worker, NULL) || pthread_create(&b, NULL, second_worker, NULL)) {
		perror("checkact: setup");
		return 2;
	}
	for (long i = 0; i < rounds; i++) {
		job = i;
		slot = 0;
		put(to_first[1]);
		if (get(to_dispatcher[0]))
			return 2;
	}
	close(to_first[1]);
	close(to_second[1]);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	for (long i = 0; i < rounds; i++)
		doubled += owners[i] > 1;
	if (doubled) {
		printf("checkact: %ld of %ld jobs were claimed by both workers\n", doubled, rounds);
		return 1;
	}
	printf("checkact: ok: %ld jobs, one owner each\n", rounds);
	return 0;
}
