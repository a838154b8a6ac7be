/* SPDX-License-Identifier: GPL-2.0 */
/*
 * examples/pairstore's race where the program does not see it: the two
 * stores are in libpairlib.so (pairlib.c), which this program loads from
 * its own directory ($ORIGIN). A writer publishes each round, a reader
 * woken at the same moment samples. --points must place points in the
 * library to stop the writer between the stores.
 *
 * usage: pairdyn [-n ROUNDS]
 * Exit status: 0 if every sample was whole, 1 when one was torn, 2 on bad usage.
 */
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

void pair_publish(long v);
int pair_torn(long *v, long *c);

static long rounds = 40;
static sem_t go_writer, go_reader, written, sampled;

static void *writer(void *arg)
{
	for (long i = 1; i <= rounds; i++) {
		sem_wait(&go_writer);
		pair_publish(i);
		sem_post(&written);
	}
	return NULL;
}

static void *reader(void *arg)
{
	for (long i = 1; i <= rounds; i++) {
		long v, c;

		sem_wait(&go_reader);
		if (pair_torn(&v, &c)) {
			printf("pairdyn: race hit: round %ld sampled value %ld with check %ld\n", i, v, c);
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
		if (c != 'n') {
			fprintf(stderr, "usage: pairdyn [-n ROUNDS]\n");
			return 2;
		}
		rounds = atol(optarg);
	}
	if (rounds <= 0) {
		fprintf(stderr, "pairdyn: need ROUNDS > 0\n");
		return 2;
	}
	sem_init(&go_writer, 0, 0);
	sem_init(&go_reader, 0, 0);
	sem_init(&written, 0, 0);
	sem_init(&sampled, 0, 0);
	if (pthread_create(&w, NULL, writer, NULL) || pthread_create(&r, NULL, reader, NULL)) {
		perror("pairdyn: pthread_create");
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
	printf("pairdyn: ok: %ld rounds, every sample whole\n", rounds);
	return 0;
}
