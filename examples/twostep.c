/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An unlocked two-step state transition. A position is kept as two fields
 * that must agree (x == y). Each round the mover is told to move (an
 * eventfd); it tells the observer that a move happened (another eventfd),
 * then updates x, computes the new y from it, and stores y. The observer
 * first plans its reaction (a long computation), then reads both fields.
 * "The move is done long before anyone looks" -- unless the mover loses its
 * CPU between its two stores. No system call and no blocking between them.
 *
 * usage: twostep [-n ROUNDS] [-w WINDOW_US] [-p PLAN_US]
 * Exit status: 0 if every reading agreed, 1 when the observer read a
 * position halfway through a move (the bug), 2 on bad usage.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "busywork.h"

static long rounds = 50, window_us = 50, plan_us = 20000;
static volatile long pos_x, pos_y;
static int move_fd, moved_fd, seen_fd;
static volatile int torn;

static void wait_on(int fd)
{
	uint64_t v;

	if (read(fd, &v, sizeof(v)) != sizeof(v))
		abort();
}

static void signal_on(int fd)
{
	uint64_t v = 1;

	if (write(fd, &v, sizeof(v)) != sizeof(v))
		abort();
}

static void *mover(void *arg)
{
	for (long i = 1; i <= rounds; i++) {
		wait_on(move_fd);
		signal_on(moved_fd);	/* announced before it is done */
		pos_x = i;		/* step one ... */
		busy_us(window_us);	/* ... compute y from x ... */
		pos_y = pos_x;		/* ... step two */
	}
	return NULL;
}

static void *observer(void *arg)
{
	for (long i = 1; i <= rounds; i++) {
		long x, y;

		wait_on(moved_fd);
		busy_us(plan_us);	/* plan the reaction first */
		y = pos_y;
		x = pos_x;
		if (x != y)
			torn = 1;
		signal_on(seen_fd);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t m, o;
	int c;

	while ((c = getopt(argc, argv, "n:w:p:")) != -1) {
		switch (c) {
		case 'n': rounds = atol(optarg); break;
		case 'w': window_us = atol(optarg); break;
		case 'p': plan_us = atol(optarg); break;
		default:
			fprintf(stderr, "usage: twostep [-n ROUNDS] [-w WINDOW_US] [-p PLAN_US]\n");
			return 2;
		}
	}
	if (rounds <= 0 || window_us < 0 || plan_us <= window_us) {
		fprintf(stderr, "twostep: need ROUNDS > 0 and PLAN_US > WINDOW_US >= 0\n");
		return 2;
	}
	busy_calibrate();
	move_fd = eventfd(0, EFD_SEMAPHORE);
	moved_fd = eventfd(0, EFD_SEMAPHORE);
	seen_fd = eventfd(0, EFD_SEMAPHORE);
	if (move_fd < 0 || moved_fd < 0 || seen_fd < 0 ||
	    pthread_create(&m, NULL, mover, NULL) || pthread_create(&o, NULL, observer, NULL)) {
		perror("twostep: setup");
		return 2;
	}
	for (long i = 1; i <= rounds; i++) {
		signal_on(move_fd);
		wait_on(seen_fd);
	}
	pthread_join(m, NULL);
	pthread_join(o, NULL);
	if (torn) {
		printf("twostep: the observer saw x != y: a move was half done\n");
		return 1;
	}
	printf("twostep: ok: %ld moves, every reading consistent\n", rounds);
	return 0;
}
