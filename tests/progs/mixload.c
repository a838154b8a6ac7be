/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A mixed load for scheduler tests: CPU-bound threads and sleep-heavy threads
 * (more of each than CPUs), for a fixed time. Reports work done, the worst
 * lateness a sleeper saw after its timer fired (how long a runnable task
 * waited for a CPU). All threads start together at a barrier and each does at
 * least one unit of work, so a thread that never gets a CPU hangs the join:
 * exit 0 means every thread ran and finished.
 *
 * usage: mixload [-t SECONDS] [-c CPU_THREADS] [-s SLEEP_THREADS]
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static double deadline;
static pthread_barrier_t start;
static atomic_ullong cpu_iters, wakeups;
static atomic_ullong max_late_ns;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void *cpu_worker(void *arg)
{
	volatile uint64_t x = (uintptr_t)arg;
	unsigned long long n = 0;

	pthread_barrier_wait(&start);
	do {
		for (int i = 0; i < 20000; i++)
			x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		n++;
	} while (now() < deadline);
	atomic_fetch_add(&cpu_iters, n);
	return (void *)(uintptr_t)(n > 0);
}

static void *sleeper(void *arg)
{
	unsigned seed = (uintptr_t)arg, n = 0;
	unsigned long long late, old;

	pthread_barrier_wait(&start);
	do {
		long ns = 100000 + rand_r(&seed) % 1900000;	/* 0.1-2 ms */
		struct timespec ts = { 0, ns };
		double t0 = now();

		nanosleep(&ts, NULL);
		late = (unsigned long long)((now() - t0) * 1e9) - ns;
		old = atomic_load(&max_late_ns);
		while (late > old && !atomic_compare_exchange_weak(&max_late_ns, &old, late))
			;
		n++;
	} while (now() < deadline);
	atomic_fetch_add(&wakeups, n);
	return (void *)(uintptr_t)(n > 0);
}

int main(int argc, char **argv)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	int secs = 10, ncpuw = 2 * ncpu, nsleep = 2 * ncpu, c, i, ok = 0;
	pthread_t *th;
	void *ret;

	while ((c = getopt(argc, argv, "t:c:s:")) != -1) {
		switch (c) {
		case 't': secs = atoi(optarg); break;
		case 'c': ncpuw = atoi(optarg); break;
		case 's': nsleep = atoi(optarg); break;
		default:
			fprintf(stderr, "usage: mixload [-t SECONDS] [-c CPU_THREADS] [-s SLEEP_THREADS]\n");
			return 2;
		}
	}
	th = calloc(ncpuw + nsleep, sizeof(*th));
	pthread_barrier_init(&start, NULL, ncpuw + nsleep + 1);
	for (i = 0; i < ncpuw + nsleep; i++)
		if (pthread_create(&th[i], NULL, i < ncpuw ? cpu_worker : sleeper,
				   (void *)(uintptr_t)(i + 1))) {
			perror("mixload: pthread_create");
			return 1;
		}
	deadline = now() + secs;	/* set before the barrier releases anyone */
	pthread_barrier_wait(&start);
	for (i = 0; i < ncpuw + nsleep; i++) {
		pthread_join(th[i], &ret);
		ok += ret != NULL;
	}
	printf("mixload: threads=%d finished_with_progress=%d cpu_iters=%llu wakeups=%llu "
	       "max_late_ms=%.1f overrun_s=%.1f\n", ncpuw + nsleep, ok,
	       (unsigned long long)cpu_iters, (unsigned long long)wakeups, max_late_ns / 1e6,
	       now() - deadline);
	return ok == ncpuw + nsleep ? 0 : 1;
}
