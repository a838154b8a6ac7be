/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A window behind a timeout. A client hands each request to a server thread
 * and waits for the answer at most TIMEOUT ms; the server reads a block
 * (a 100 us sleep stands for the I/O) and answers in well under a
 * millisecond, so the author, on a timeout, simply moves on and reuses the
 * request slot for the next request. A server whose wake-up from its I/O
 * comes later than the timeout answers the old request into the reused slot,
 * and the client takes that answer for the new request's.
 *
 * usage: timeout [-n REQUESTS] [-t TIMEOUT_MS] [-i IO_US]
 * Exit status: 0 if every answer matched its request, 1 when a stale answer
 * was taken for a newer request (the bug), 2 on bad usage.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static struct {
	pthread_mutex_t lock;
	pthread_cond_t posted, answered;
	long id;		/* the request in the slot */
	long answer;		/* the server's answer: 2 * the id it served */
	int pending, ready, done;
} slot = { .lock = PTHREAD_MUTEX_INITIALIZER, .posted = PTHREAD_COND_INITIALIZER,
	   .answered = PTHREAD_COND_INITIALIZER };

static long nr_requests = 300, timeout_ms = 100, io_us = 100;

static void *server(void *arg)
{
	struct timespec io = { 0, io_us * 1000 };
	long id;

	pthread_mutex_lock(&slot.lock);
	for (;;) {
		while (!slot.pending && !slot.done)
			pthread_cond_wait(&slot.posted, &slot.lock);
		if (slot.done)
			break;
		id = slot.id;
		slot.pending = 0;
		pthread_mutex_unlock(&slot.lock);
		nanosleep(&io, NULL);		/* read the block */
		pthread_mutex_lock(&slot.lock);
		slot.answer = 2 * id;		/* into whatever request the slot holds now */
		slot.ready = 1;
		pthread_cond_signal(&slot.answered);
	}
	pthread_mutex_unlock(&slot.lock);
	return NULL;
}

int main(int argc, char **argv)
{
	struct timespec deadline;
	long timeouts = 0;
	pthread_t s;
	int c, err;

	while ((c = getopt(argc, argv, "n:t:i:")) != -1) {
		switch (c) {
		case 'n': nr_requests = atol(optarg); break;
		case 't': timeout_ms = atol(optarg); break;
		case 'i': io_us = atol(optarg); break;
		default:
			fprintf(stderr, "usage: timeout [-n REQUESTS] [-t TIMEOUT_MS] [-i IO_US]\n");
			return 2;
		}
	}
	if (nr_requests <= 0 || timeout_ms <= 0 || io_us < 0 || io_us >= 1000000) {
		fprintf(stderr, "timeout: need REQUESTS > 0, TIMEOUT_MS > 0 and 0 <= IO_US < 10^6\n");
		return 2;
	}
	if (pthread_create(&s, NULL, server, NULL)) {
		perror("timeout: pthread_create");
		return 2;
	}
	pthread_mutex_lock(&slot.lock);
	for (long i = 1; i <= nr_requests; i++) {
		slot.id = i;			/* the slot is reused: the last request was answered, or given up */
		slot.pending = 1;
		slot.ready = 0;
		pthread_cond_signal(&slot.posted);
		clock_gettime(CLOCK_REALTIME, &deadline);
		deadline.tv_nsec += (timeout_ms % 1000) * 1000000L;
		deadline.tv_sec += timeout_ms / 1000 + deadline.tv_nsec / 1000000000L;
		deadline.tv_nsec %= 1000000000L;
		err = 0;
		while (!slot.ready && err != ETIMEDOUT)
			err = pthread_cond_timedwait(&slot.answered, &slot.lock, &deadline);
		if (!slot.ready) {		/* "cannot happen": give up on it */
			timeouts++;
			continue;
		}
		if (slot.answer != 2 * i) {
			printf("timeout: race hit: request %ld got request %ld's answer (%ld timed out)\n",
			       i, slot.answer / 2, timeouts);
			exit(1);
		}
	}
	slot.done = 1;
	pthread_cond_signal(&slot.posted);
	pthread_mutex_unlock(&slot.lock);
	pthread_join(s, NULL);
	printf("timeout: ok: %ld requests answered (%ld timed out)\n", nr_requests, timeouts);
	return 0;
}
