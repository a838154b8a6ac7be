/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The seed's scenario: a producer hands out items that expire, a consumer
 * processes them. The code assumes the consumer always gets to an item
 * within its time to live (it is woken the moment the item is queued, and
 * the machine is idle): a consumer held back for longer processes an expired
 * item -- think of a lease, a token or a deadline handed between threads.
 *
 * usage: expiry [-n ITEMS] [-t TTL_MS] [-p PERIOD_US]
 * Exit status: 0 if every item was processed in time, 1 when the consumer
 * processed an expired item (the bug), 2 on bad usage.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

struct item {
	long seq;
	long long expires_ns;
};

#define QUEUE_LEN 64

static struct {
	pthread_mutex_t lock;
	pthread_cond_t nonempty;
	struct item items[QUEUE_LEN];
	unsigned head, tail;
	int done;
} q = { .lock = PTHREAD_MUTEX_INITIALIZER, .nonempty = PTHREAD_COND_INITIALIZER };

static long nr_items = 300, ttl_ms = 20, period_us = 2000;

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void *producer(void *arg)
{
	struct timespec pause = { 0, period_us * 1000 };

	for (long i = 0; i < nr_items; i++) {
		pthread_mutex_lock(&q.lock);
		if (q.tail - q.head < QUEUE_LEN)
			q.items[q.tail++ % QUEUE_LEN] = (struct item){ i, now_ns() + ttl_ms * 1000000LL };
		pthread_cond_signal(&q.nonempty);
		pthread_mutex_unlock(&q.lock);
		nanosleep(&pause, NULL);
	}
	pthread_mutex_lock(&q.lock);
	q.done = 1;
	pthread_cond_signal(&q.nonempty);
	pthread_mutex_unlock(&q.lock);
	return NULL;
}

/* Processing an item after it expired is the bug: report it and fail. */
static void process(const struct item *it)
{
	long long late = now_ns() - it->expires_ns;

	if (late > 0) {
		printf("expiry: race hit: item %ld processed %.2f ms after it expired (ttl %ld ms)\n",
		       it->seq, late / 1e6, ttl_ms);
		exit(1);
	}
}

static void *consumer(void *arg)
{
	struct item it;

	for (;;) {
		pthread_mutex_lock(&q.lock);
		while (q.head == q.tail && !q.done)
			pthread_cond_wait(&q.nonempty, &q.lock);
		if (q.head == q.tail) {
			pthread_mutex_unlock(&q.lock);
			return NULL;
		}
		it = q.items[q.head++ % QUEUE_LEN];
		pthread_mutex_unlock(&q.lock);
		process(&it);
	}
}

int main(int argc, char **argv)
{
	pthread_t prod, cons;
	int c;

	while ((c = getopt(argc, argv, "n:t:p:")) != -1) {
		switch (c) {
		case 'n': nr_items = atol(optarg); break;
		case 't': ttl_ms = atol(optarg); break;
		case 'p': period_us = atol(optarg); break;
		default:
			fprintf(stderr, "usage: expiry [-n ITEMS] [-t TTL_MS] [-p PERIOD_US]\n");
			return 2;
		}
	}
	if (nr_items <= 0 || ttl_ms <= 0 || period_us <= 0 || period_us >= 1000000) {
		fprintf(stderr, "expiry: ITEMS, TTL_MS must be > 0 and PERIOD_US in 1..999999\n");
		return 2;
	}
	if (pthread_create(&cons, NULL, consumer, NULL) || pthread_create(&prod, NULL, producer, NULL)) {
		perror("expiry: pthread_create");
		return 2;
	}
	pthread_join(prod, NULL);
	pthread_join(cons, NULL);
	printf("expiry: ok: %ld items processed in time (ttl %ld ms)\n", nr_items, ttl_ms);
	return 0;
}
