/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A reference count updated with a plain read-modify-write. A connection is
 * shared by the request worker and the owner; each drops its reference when
 * done, logging the new count on the way (the log call sits between reading
 * and writing the count). The worker is always done long before the owner
 * closes, so the two releases never overlap -- unless the worker is held
 * back inside its release. Then both read 2, both write 1, and the
 * connection is never freed: a leaked reference (with more users, a double
 * free).
 *
 * usage: refcount [-r ROUNDS] [-g GAP_US] [-l LOG_US]
 * Exit status: 0 if every connection was freed exactly once, 1 when a
 * reference was lost (the bug), 2 on bad usage.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

struct conn {
	volatile int refs;
	volatile int frees;
};

static long rounds = 100, gap_us = 20000, log_us = 100;

static void sleep_us(long us)
{
	struct timespec t = { us / 1000000, (us % 1000000) * 1000 };

	nanosleep(&t, NULL);
}

static void conn_put(struct conn *c)
{
	int refs = c->refs - 1;

	sleep_us(log_us);		/* log("conn %p: %d refs left", c, refs) */
	c->refs = refs;
	if (refs == 0)
		c->frees++;		/* free(c) */
}

static void *worker(void *arg)
{
	conn_put(arg);			/* request served */
	return NULL;
}

static void *owner(void *arg)
{
	sleep_us(gap_us);		/* the client closes well after its request */
	conn_put(arg);
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t a, b;
	int c;

	while ((c = getopt(argc, argv, "r:g:l:")) != -1) {
		switch (c) {
		case 'r': rounds = atol(optarg); break;
		case 'g': gap_us = atol(optarg); break;
		case 'l': log_us = atol(optarg); break;
		default:
			fprintf(stderr, "usage: refcount [-r ROUNDS] [-g GAP_US] [-l LOG_US]\n");
			return 2;
		}
	}
	if (rounds <= 0 || gap_us <= log_us || log_us <= 0) {
		fprintf(stderr, "refcount: need ROUNDS > 0 and GAP_US > LOG_US > 0\n");
		return 2;
	}
	for (long r = 0; r < rounds; r++) {
		struct conn conn = { .refs = 2 };

		if (pthread_create(&a, NULL, worker, &conn) || pthread_create(&b, NULL, owner, &conn)) {
			perror("refcount: pthread_create");
			return 2;
		}
		pthread_join(a, NULL);
		pthread_join(b, NULL);
		if (conn.frees != 1) {
			printf("refcount: race hit: round %ld: connection freed %d times, %d refs left\n",
			       r, conn.frees, conn.refs);
			return 1;
		}
	}
	printf("refcount: ok: %ld connections freed once each\n", rounds);
	return 0;
}
