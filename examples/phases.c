/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A phase mix-up in a worker pool: each phase, workers compute a result,
 * report "done" to the coordinator, and then write the result out -- after
 * a short flush of their own. The coordinator waits for every "done", spends
 * a while preparing the phase report, and reads the results. The flush is
 * much shorter than the report preparation, so the results were always
 * there -- until a worker is held back after its flush and the coordinator
 * reads a result of the previous phase.
 *
 * usage: phases [-w WORKERS] [-n PHASES] [-f FLUSH_US] [-p PREPARE_US]
 * Exit status: 0 if every phase read its own results, 1 when one read a
 * stale result (the bug), 2 on bad usage.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define MAX_WORKERS 32

static long workers = 3, phases = 100, flush_us = 100, prepare_us = 20000;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t changed = PTHREAD_COND_INITIALIZER;
static long phase = -1, done;
static volatile long result[MAX_WORKERS];

static void sleep_us(long us)
{
	struct timespec t = { us / 1000000, (us % 1000000) * 1000 };

	nanosleep(&t, NULL);
}

static void *worker(void *arg)
{
	long id = (long)arg, seen = -1;

	for (;;) {
		pthread_mutex_lock(&lock);
		while (phase == seen)
			pthread_cond_wait(&changed, &lock);
		seen = phase;
		pthread_mutex_unlock(&lock);
		if (seen >= phases)
			return NULL;
		long value = seen * 1000 + id;	/* the phase's work */

		pthread_mutex_lock(&lock);
		done++;				/* "done" is reported ... */
		pthread_cond_broadcast(&changed);
		pthread_mutex_unlock(&lock);
		sleep_us(flush_us);		/* ... before the result is flushed */
		result[id] = value;
	}
}

int main(int argc, char **argv)
{
	pthread_t t[MAX_WORKERS];
	int c;

	while ((c = getopt(argc, argv, "w:n:f:p:")) != -1) {
		switch (c) {
		case 'w': workers = atol(optarg); break;
		case 'n': phases = atol(optarg); break;
		case 'f': flush_us = atol(optarg); break;
		case 'p': prepare_us = atol(optarg); break;
		default:
			fprintf(stderr, "usage: phases [-w WORKERS] [-n PHASES] [-f FLUSH_US] [-p PREPARE_US]\n");
			return 2;
		}
	}
	if (workers < 1 || workers > MAX_WORKERS || phases <= 0 || flush_us <= 0 || prepare_us <= flush_us) {
		fprintf(stderr, "phases: need 1..%d WORKERS, PHASES > 0, PREPARE_US > FLUSH_US > 0\n", MAX_WORKERS);
		return 2;
	}
	for (long i = 0; i < workers; i++)
		if (pthread_create(&t[i], NULL, worker, (void *)i)) {
			perror("phases: pthread_create");
			return 2;
		}
	for (long p = 0; p <= phases; p++) {
		pthread_mutex_lock(&lock);
		done = 0;
		phase = p;
		pthread_cond_broadcast(&changed);
		while (p < phases && done < workers)
			pthread_cond_wait(&changed, &lock);
		pthread_mutex_unlock(&lock);
		if (p == phases)
			break;
		sleep_us(prepare_us);		/* prepare the phase report */
		for (long i = 0; i < workers; i++) {
			if (result[i] != p * 1000 + i) {
				printf("phases: race hit: phase %ld read worker %ld's result of an earlier phase\n",
				       p, i);
				return 1;
			}
		}
	}
	for (long i = 0; i < workers; i++)
		pthread_join(t[i], NULL);
	printf("phases: ok: %ld phases\n", phases);
	return 0;
}
