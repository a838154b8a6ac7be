/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Publication of a half-initialised record. The producer fills a record per
 * round, and it signals the consumer (a condition variable) as soon as the
 * header is written, then computes the payload and its checksum into the
 * same record, outside any lock. The consumer first writes a log line's worth
 * of work (a long computation), then reads the record and checks its sum.
 * Fine as long as the producer is never interrupted between its signal and
 * its last store. No system call and no blocking in that window.
 *
 * usage: halfinit [-n ROUNDS] [-w WINDOW_US] [-p PREPARE_US]
 * Exit status: 0 if every record read was complete, 1 when the consumer saw a
 * half-initialised one (the bug), 2 on bad usage.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "busywork.h"

#define PAYLOAD 16

struct record {
	long round;
	long payload[PAYLOAD];
	long sum;
};

static long rounds = 50, window_us = 50, prepare_us = 20000;
static struct record rec;
static long published = -1, consumed = -1;	/* rounds, under lock */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t changed = PTHREAD_COND_INITIALIZER;
static volatile int torn;

static void *producer(void *arg)
{
	for (long i = 0; i < rounds; i++) {
		pthread_mutex_lock(&lock);
		while (consumed != i - 1)	/* the previous record was read */
			pthread_cond_wait(&changed, &lock);
		rec.round = i;
		published = i;			/* signalled before the record is complete */
		pthread_cond_broadcast(&changed);
		pthread_mutex_unlock(&lock);
		*(volatile long *)&rec.sum = 0;
		for (int k = 0; k < PAYLOAD; k++) {
			busy_us((double)window_us / PAYLOAD);
			((volatile long *)rec.payload)[k] = i * PAYLOAD + k;
		}
		*(volatile long *)&rec.sum = i * PAYLOAD * PAYLOAD + PAYLOAD * (PAYLOAD - 1) / 2;
	}
	return NULL;
}

static void *consumer(void *arg)
{
	for (long i = 0; i < rounds; i++) {
		long sum = 0;

		pthread_mutex_lock(&lock);
		while (published != i)
			pthread_cond_wait(&changed, &lock);
		pthread_mutex_unlock(&lock);
		busy_us(prepare_us);		/* format the log line first */
		for (int k = 0; k < PAYLOAD; k++)
			sum += ((volatile long *)rec.payload)[k];
		if (sum != *(volatile long *)&rec.sum || sum != i * PAYLOAD * PAYLOAD + PAYLOAD * (PAYLOAD - 1) / 2)
			torn = 1;
		pthread_mutex_lock(&lock);
		consumed = i;
		pthread_cond_broadcast(&changed);
		pthread_mutex_unlock(&lock);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t p, q;
	int c;

	while ((c = getopt(argc, argv, "n:w:p:")) != -1) {
		switch (c) {
		case 'n': rounds = atol(optarg); break;
		case 'w': window_us = atol(optarg); break;
		case 'p': prepare_us = atol(optarg); break;
		default:
			fprintf(stderr, "usage: halfinit [-n ROUNDS] [-w WINDOW_US] [-p PREPARE_US]\n");
			return 2;
		}
	}
	if (rounds <= 0 || window_us < 0 || prepare_us <= window_us) {
		fprintf(stderr, "halfinit: need ROUNDS > 0 and PREPARE_US > WINDOW_US >= 0\n");
		return 2;
	}
	busy_calibrate();
	if (pthread_create(&p, NULL, producer, NULL) || pthread_create(&q, NULL, consumer, NULL)) {
		perror("halfinit: pthread_create");
		return 2;
	}
	pthread_join(p, NULL);
	pthread_join(q, NULL);
	if (torn) {
		printf("halfinit: the consumer read a half-initialised record\n");
		return 1;
	}
	printf("halfinit: ok: %ld records, all complete when read\n", rounds);
	return 0;
}
