/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Two stores that must look like one. Each round, a writer publishes a value
 * and its check word (the negated value) without a lock, and a reader, woken
 * at the same moment, samples both. The author's argument: "the two stores
 * are adjacent instructions; nothing can fall between them". A reader that
 * runs while the writer is stopped between the stores sees a torn pair. The
 * window is one instruction wide and holds no scheduling event: it is what
 * --points reaches (a uprobe traps the writer right at the second store).
 *
 * usage: pairstore [-n ROUNDS]
 * Exit status: 0 if every sample was whole, 1 when one was torn (the bug),
 * 2 on bad usage.
 */
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static volatile long value, check;	/* check == -value between rounds */
static long rounds = 40;
static sem_t go_writer, go_reader, written, sampled;

static __attribute__((noinline)) void publish(long v)
{
	value = v;
	check = -v;	/* the window: between this store and the one above */
}

static void *writer(void *arg)
{
	for (long i = 1; i <= rounds; i++) {
		sem_wait(&go_writer);
		publish(i);
		sem_post(&written);
	}
	return NULL;
}

static void *reader(void *arg)
{
	for (long i = 1; i <= rounds; i++) {
		long v, c;

		sem_wait(&go_reader);
		v = value;
		c = check;
		if (v != -c) {
			printf("pairstore: race hit: round %ld sampled value %ld with check %ld\n", i, v, c);
			exit(1);
		}
		sem_post(&sampled);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t w, r;
	int c;

	while ((c = getopt(argc, argv, "n:")) != -1) {
		switch (c) {
		case 'n': rounds = atol(optarg); break;
		default:
			fprintf(stderr, "usage: pairstore [-n ROUNDS]\n");
			return 2;
		}
	}
	if (rounds <= 0) {
		fprintf(stderr, "pairstore: need ROUNDS > 0\n");
		return 2;
	}
	sem_init(&go_writer, 0, 0);
	sem_init(&go_reader, 0, 0);
	sem_init(&written, 0, 0);
	sem_init(&sampled, 0, 0);
	if (pthread_create(&w, NULL, writer, NULL) || pthread_create(&r, NULL, reader, NULL)) {
		perror("pairstore: pthread_create");
		return 2;
	}
	for (long i = 1; i <= rounds; i++) {	/* wake both at once */
		sem_post(&go_writer);
		sem_post(&go_reader);
		sem_wait(&written);
		sem_wait(&sampled);
	}
	pthread_join(w, NULL);
	pthread_join(r, NULL);
	printf("pairstore: ok: %ld rounds, every sample whole\n", rounds);
	return 0;
}
