/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An order violation between a creator and the thread it creates. A
 * dispatcher starts one worker thread per job and, right after
 * pthread_create() returns, stamps the job with its deadline. The worker
 * sets itself up (a short computation) and then reads the deadline. The
 * author's argument: "a new thread needs far longer to get going than we need
 * for one store". True, until the dispatcher loses its CPU right after
 * creating the worker: the worker then finds no deadline and drops the job
 * as overdue. The window opens at a thread creation and holds no other
 * scheduling event.
 *
 * usage: startorder [-n JOBS] [-s SETUP_US]
 * Exit status: 0 if every worker found its deadline, 1 when one started
 * before its creator stamped the job (the bug), 2 on bad usage.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "busywork.h"

struct job {
	long id;
	volatile double deadline_us;	/* 0 until the dispatcher stamps it */
};

static long nr_jobs = 20, setup_us = 5000;

static void *worker(void *arg)
{
	struct job *j = arg;

	busy_us(setup_us);	/* its own set-up: "far longer than one store" */
	if (j->deadline_us == 0) {
		printf("startorder: race hit: job %ld's worker ran %ld us before its creator stamped it\n",
		       j->id, setup_us);
		exit(1);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t;
	int c;

	while ((c = getopt(argc, argv, "n:s:")) != -1) {
		switch (c) {
		case 'n': nr_jobs = atol(optarg); break;
		case 's': setup_us = atol(optarg); break;
		default:
			fprintf(stderr, "usage: startorder [-n JOBS] [-s SETUP_US]\n");
			return 2;
		}
	}
	if (nr_jobs <= 0 || setup_us < 0) {
		fprintf(stderr, "startorder: need JOBS > 0 and SETUP_US >= 0\n");
		return 2;
	}
	busy_calibrate();
	for (long i = 0; i < nr_jobs; i++) {
		struct job j = { .id = i };

		if (pthread_create(&t, NULL, worker, &j)) {
			perror("startorder: pthread_create");
			return 2;
		}
		j.deadline_us = now_us() + 1e6;	/* the window: from the create to here */
		pthread_join(t, NULL);
	}
	printf("startorder: ok: %ld jobs, each stamped before its worker looked\n", nr_jobs);
	return 0;
}
