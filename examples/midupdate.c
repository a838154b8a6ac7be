/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An inconsistency inside a short burst. A worker sleeps on a pipe; each
 * request wakes it, it applies the update to a shared record in two halves
 * with a short computation between them (the record is inconsistent
 * meanwhile), and goes back to sleep: a burst between two system calls. The
 * requester asks an auditor to check the record, without a lock, AUDIT_MS
 * after each request. The author's argument: "an update takes microseconds;
 * by the audit it is long done". It is not when the worker loses its CPU
 * inside its update and stays off it past the audit. No scheduling event is
 * inside the window, and the auditor is asleep while it is open.
 * On real hardware try -w 5; an emulated machine needs about 100 us to
 * preempt a thread (docs/testing.md), hence the wider default window.
 *
 * usage: midupdate [-n UPDATES] [-w WINDOW_US] [-a AUDIT_MS]
 * Exit status: 0 if every audit saw a consistent record, 1 when one saw a
 * half-applied update (the bug), 2 on bad usage.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "busywork.h"

static struct {
	volatile long first, second;	/* equal when consistent */
} record;

static long nr_updates = 100, window_us = 200, audit_ms = 10;
static int requests[2], audits[2];

static void *worker(void *arg)
{
	char c;

	for (long i = 1; i <= nr_updates; i++) {
		if (read(requests[0], &c, 1) != 1)
			break;
		record.first = i;	/* the window opens ... */
		busy_us(window_us);
		record.second = i;	/* ... and closes */
	}
	return NULL;
}

static void *auditor(void *arg)
{
	char c;

	while (read(audits[0], &c, 1) == 1 && c == 'a') {
		if (record.first != record.second) {
			printf("midupdate: race hit: the audit saw update %ld half-applied\n", record.first);
			exit(1);
		}
	}
	return NULL;
}

int main(int argc, char **argv)
{
	struct timespec gap;
	pthread_t w, a;
	int c;

	while ((c = getopt(argc, argv, "n:w:a:")) != -1) {
		switch (c) {
		case 'n': nr_updates = atol(optarg); break;
		case 'w': window_us = atol(optarg); break;
		case 'a': audit_ms = atol(optarg); break;
		default:
			fprintf(stderr, "usage: midupdate [-n UPDATES] [-w WINDOW_US] [-a AUDIT_MS]\n");
			return 2;
		}
	}
	if (nr_updates <= 0 || window_us < 0 || audit_ms <= 0 || pipe(requests) || pipe(audits)) {
		fprintf(stderr, "midupdate: need UPDATES and AUDIT_MS > 0, WINDOW_US >= 0\n");
		return 2;
	}
	busy_calibrate();
	gap = (struct timespec){ audit_ms / 1000, (audit_ms % 1000) * 1000000L };
	if (pthread_create(&w, NULL, worker, NULL) || pthread_create(&a, NULL, auditor, NULL)) {
		perror("midupdate: pthread_create");
		return 2;
	}
	for (long i = 0; i < nr_updates; i++) {	/* a request, its audit, a pause */
		if (write(requests[1], "u", 1) != 1)
			return 2;
		nanosleep(&gap, NULL);
		if (write(audits[1], "a", 1) != 1)
			return 2;
		nanosleep(&gap, NULL);
	}
	pthread_join(w, NULL);
	if (write(audits[1], "q", 1) != 1)
		return 2;
	pthread_join(a, NULL);
	printf("midupdate: ok: %ld updates, every audit consistent\n", nr_updates);
	return 0;
}
