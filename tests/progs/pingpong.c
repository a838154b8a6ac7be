/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Pipe ping-pong: PAIRS pairs of threads bounce one byte through two pipes
 * for SECONDS. Every round trip is two wake-ups and two context switches, so
 * the rate measures a scheduler's wake-up path (the benchmark on which a
 * single-queue sched_ext scheduler fell 55x behind on a 128-CPU machine).
 *
 * usage: pingpong [-t SECONDS] [-p PAIRS]
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static atomic_int stop;
static atomic_ullong trips;

struct pair {
	int ping[2], pong[2];
};

static void *echo(void *arg)
{
	struct pair *p = arg;
	char c;

	while (read(p->ping[0], &c, 1) == 1 && c)
		if (write(p->pong[1], &c, 1) != 1)
			break;
	return NULL;
}

static void *serve(void *arg)
{
	struct pair *p = arg;
	unsigned long long n = 0;
	char c = 1;

	while (!atomic_load_explicit(&stop, memory_order_relaxed)) {
		if (write(p->ping[1], &c, 1) != 1 || read(p->pong[0], &c, 1) != 1)
			break;
		n++;
	}
	c = 0;
	if (write(p->ping[1], &c, 1) != 1)
		perror("pingpong: write");
	atomic_fetch_add(&trips, n);
	return NULL;
}

int main(int argc, char **argv)
{
	int secs = 5, pairs = 1, c, i;
	struct timespec t0, t1;
	pthread_t *th;
	struct pair *p;
	double el;

	while ((c = getopt(argc, argv, "t:p:")) != -1) {
		switch (c) {
		case 't': secs = atoi(optarg); break;
		case 'p': pairs = atoi(optarg); break;
		default:
			fprintf(stderr, "usage: pingpong [-t SECONDS] [-p PAIRS]\n");
			return 2;
		}
	}
	p = calloc(pairs, sizeof(*p));
	th = calloc(2 * pairs, sizeof(*th));
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; i < pairs; i++) {
		if (pipe(p[i].ping) || pipe(p[i].pong)) {
			perror("pingpong: pipe");
			return 1;
		}
		pthread_create(&th[2 * i], NULL, echo, &p[i]);
		pthread_create(&th[2 * i + 1], NULL, serve, &p[i]);
	}
	sleep(secs);
	atomic_store(&stop, 1);
	for (i = 0; i < 2 * pairs; i++)
		pthread_join(th[i], NULL);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	el = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
	printf("pingpong: pairs=%d roundtrips=%llu seconds=%.2f rate=%.0f\n", pairs,
	       (unsigned long long)trips, el, trips / el);
	return 0;
}
