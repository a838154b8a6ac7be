/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A racy lazy initialisation: the first caller of get_config() allocates the
 * shared configuration, publishes the pointer, and only then loads it (from
 * a slow source). The double-checked "if (!config)" fast path lets a later
 * caller use a config that is published but not loaded yet. Callers come
 * well after the first one in practice, so the load always finished first --
 * unless the loading thread is held back after its slow read.
 *
 * usage: lazyinit [-r ROUNDS] [-g GAP_US] [-l LOAD_US]
 * Exit status: 0 if every caller saw a loaded config, 1 when one saw a
 * half-initialised one (the bug), 2 on bad usage.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

struct config {
	int max_conns;		/* 0 until loaded */
};

static struct config *volatile config;
static pthread_mutex_t config_lock = PTHREAD_MUTEX_INITIALIZER;
static long rounds = 100, gap_us = 20000, load_us = 100;

static void sleep_us(long us)
{
	struct timespec t = { us / 1000000, (us % 1000000) * 1000 };

	nanosleep(&t, NULL);
}

static struct config *get_config(void)
{
	if (!config) {				/* fast path, no lock */
		pthread_mutex_lock(&config_lock);
		if (!config) {
			struct config *c = calloc(1, sizeof(*c));

			config = c;		/* published too early ... */
			sleep_us(load_us);	/* ... the slow read of the settings */
			c->max_conns = 64;
		}
		pthread_mutex_unlock(&config_lock);
	}
	return config;
}

static void *early_caller(void *arg)
{
	get_config();
	return NULL;
}

static void *late_caller(void *arg)
{
	sleep_us(gap_us);			/* comes well after the first caller */
	if (get_config()->max_conns != 64) {
		printf("lazyinit: race hit: round %ld saw a config that was not loaded yet\n", (long)arg);
		exit(1);
	}
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
		case 'l': load_us = atol(optarg); break;
		default:
			fprintf(stderr, "usage: lazyinit [-r ROUNDS] [-g GAP_US] [-l LOAD_US]\n");
			return 2;
		}
	}
	if (rounds <= 0 || gap_us <= load_us || load_us <= 0) {
		fprintf(stderr, "lazyinit: need ROUNDS > 0 and GAP_US > LOAD_US > 0\n");
		return 2;
	}
	for (long r = 0; r < rounds; r++) {	/* each round: a fresh process-wide singleton */
		free(config);
		config = NULL;
		if (pthread_create(&a, NULL, early_caller, NULL) ||
		    pthread_create(&b, NULL, late_caller, (void *)r)) {
			perror("lazyinit: pthread_create");
			return 2;
		}
		pthread_join(a, NULL);
		pthread_join(b, NULL);
	}
	printf("lazyinit: ok: %ld rounds\n", rounds);
	return 0;
}
