/* SPDX-License-Identifier: GPL-2.0 */
/*
 * --points through the whole target tree. The scheduler holds each target
 * process that execs, and each child forked by a process with points,
 * before its first user instruction, and tells us (sched/execwait.c). Here
 * it gets the points of the program it runs, chosen once per file
 * (points/images.c), placed as its own links (points/probes.c), and then
 * the answer lets it go. A program where nothing can be placed is answered
 * at once; a slow answer only costs the process its points until it comes.
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "execwait.h"
#include "follow.h"
#include "pointname.h"
#include "sched.h"
#include "scx_fuzz.h"

static void describe(const struct point_set *ps, const struct image *img, const char *path)
{
	size_t kinds[4] = { 0 };

	for (size_t i = 0; i < img->n; i++)
		kinds[ps->p[img->idx[i]].kind]++;
	fprintf(stderr, "scx_fuzz: %zu points in %s, run by the target: %zu lock calls, %zu functions, "
		"%zu instructions%s\n", img->n, path, kinds[POINT_LOCK] + kinds[POINT_LOCK_RET], kinds[POINT_FUNC],
		kinds[POINT_INSN], points_own_note(img->own_from));
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* Process `pid` runs the program at `path` now: its points; whether it has any. */
static bool place(struct follow *f, pid_t pid, const char *path)
{
	const struct image *img;
	char err[512] = "";
	bool fresh, known;
	const uint32_t *had = probes_of(f->pr, pid, &known);
	long placed;

	img = images_for(&f->images, path, &fresh, err, sizeof(err));
	if (!img) {
		if (f->verbose)
			fprintf(stderr, "scx_fuzz: no points for process %d: %s\n", pid, err);
		return false;
	}
	if (fresh && img->n)
		describe(f->images.ps, img, path);
	else if (fresh && f->verbose)
		fprintf(stderr, "scx_fuzz: no point in %s, run by the target%s%s\n", path, *err ? ": " : "", err);
	if (known && had == img->idx)
		return img->n > 0;	/* the command itself: placed before it started */
	if (known)
		probes_remove(f->pr, pid);
	placed = probes_add(f->pr, f->s->skel, f->images.ps, pid, img->idx, img->n);
	if (img->n)
		f->nr_procs++;
	if (placed < 0 && img->n && f->verbose)
		fprintf(stderr, "scx_fuzz: cannot place the points of %s in process %d: %s\n", path, pid,
			strerror((int)-placed));
	return placed > 0;
}

static int on_image(void *ctx, void *data, size_t size)
{
	const struct fuzz_image_event *e = data;
	struct follow *f = ctx;
	char link[64], path[PATH_MAX];
	bool pointed = false;
	ssize_t n;

	if (size < sizeof(*e))
		return 0;
	if (e->tgid == (__u32)f->answered && e->kind == FUZZ_IMAGE_EXEC) {
		f->answered = 0;	/* its first exec: into the command, whose points are placed */
		return 0;
	}
	snprintf(link, sizeof(link), "/proc/%u/exe", e->tgid);
	n = readlink(link, path, sizeof(path) - 1);
	if (n > 0) {	/* else it is gone already */
		path[n] = 0;
		pointed = place(f, e->tgid, path);
	}
	sched_image_answer(f->s, e->tgid, pointed);
	if (f->verbose)
		fprintf(stderr, "scx_fuzz: process %u %s %s: %s, %.1f ms after it began to wait\n", e->tgid,
			e->kind == FUZZ_IMAGE_EXEC ? "runs" : "forked, runs", n > 0 ? path : "(gone)",
			pointed ? "its points placed" : "no points", (now_ns() - e->ts_ns) / 1e6);
	return 0;
}

int follow_start(struct follow *f, struct sched *s, struct probes *pr, bool verbose)
{
	f->s = s;
	f->pr = pr;
	f->verbose = verbose;
	return sched_images_start(s, on_image, f);
}

void follow_command(struct follow *f, pid_t pid, bool pointed)
{
	if (!f->s)
		return;
	f->answered = pid;
	sched_image_answer(f->s, pid, pointed);
}

void follow_drain(struct follow *f)
{
	if (f->s)
		sched_images_drain(f->s);
}

int follow_fd(const struct follow *f)
{
	return f->s ? sched_images_fd(f->s) : -1;
}
