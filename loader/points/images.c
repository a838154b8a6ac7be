/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The programs of the target tree, each with its points. A file is known by
 * device, inode and modification time (a rebuilt binary is a new image), so
 * the ELF, DWARF and disassembly work is done once per file however often
 * the tree runs it. Merging a new program's points renumbers its binaries
 * and functions into the shared set; a shared library already there (the C
 * library's lock calls) keeps the points it has.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "images.h"
#include "scx_fuzz.h"

static int64_t mtime_of(const struct stat *st)
{
	return (int64_t)st->st_mtim.tv_sec * 1000000000 + st->st_mtim.tv_nsec;
}

static struct image *new_image(struct images *im, const struct stat *st)
{
	if (im->n == im->cap) {
		size_t cap = im->cap ? 2 * im->cap : 8;
		struct image *v = realloc(im->v, cap * sizeof(*v));

		if (!v)
			return NULL;
		im->v = v;
		im->cap = cap;
	}
	im->v[im->n] = (struct image){ st->st_dev, st->st_ino, mtime_of(st), NULL, 0, OWN_FROM_DWARF };
	return &im->v[im->n++];
}

int images_init(struct images *im, struct point_set *ps, const struct point_spec *spec, uint64_t seed,
		const char *exe)
{
	struct image *img;
	struct stat st;

	memset(im, 0, sizeof(*im));
	im->ps = ps;
	im->spec = *spec;
	im->seed = seed;
	if (stat(exe, &st) || !(img = new_image(im, &st)))
		return -errno;
	img->idx = calloc(ps->n ? ps->n : 1, sizeof(*img->idx));
	if (!img->idx)
		return -ENOMEM;
	for (size_t i = 0; i < ps->n; i++)
		img->idx[img->n++] = i;
	return 0;
}

/* The index of binary `path` in the shared set, added if new; -1 when full. */
static int binary_index(struct point_set *ps, const char *path, bool *was_there)
{
	for (unsigned b = 0; b < ps->npaths; b++) {
		if (ps->paths[b] && !strcmp(ps->paths[b], path)) {
			*was_there = true;
			return b;
		}
	}
	*was_there = false;
	if (ps->npaths >= POINT_MAX_BINARIES || !(ps->paths[ps->npaths] = strdup(path)))
		return -1;
	return ps->npaths++;
}

static long find_point(const struct point_set *ps, uint32_t bin, uint64_t offset, uint8_t kind)
{
	for (size_t i = 0; i < ps->n; i++)
		if (ps->p[i].binary == bin && ps->p[i].offset == offset && ps->p[i].kind == kind)
			return i;
	return -1;
}

static bool grow(void **v, size_t *cap, size_t need, size_t elem)
{
	void *nv;

	if (need <= *cap)
		return true;
	nv = realloc(*v, need * elem);
	if (!nv)
		return false;
	*v = nv;
	*cap = need;
	return true;
}

/* Add `src`'s points to the shared set; their indices there go to img. */
static int merge(struct point_set *ps, struct point_set *src, struct image *img)
{
	int bin[POINT_MAX_BINARIES];
	bool known[POINT_MAX_BINARIES];
	size_t func0 = ps->nfuncs;

	for (unsigned b = 0; b < src->npaths; b++)
		if ((bin[b] = binary_index(ps, src->paths[b], &known[b])) < 0)
			return -ENOSPC;
	if (!grow((void **)&ps->funcs, &ps->funcs_cap, ps->nfuncs + src->nfuncs, sizeof(*ps->funcs)) ||
	    !(img->idx = calloc(src->n ? src->n : 1, sizeof(*img->idx))))
		return -ENOMEM;
	for (size_t f = 0; f < src->nfuncs; f++) {
		ps->funcs[ps->nfuncs] = src->funcs[f];
		ps->funcs[ps->nfuncs++].binary = bin[src->funcs[f].binary];
		src->funcs[f].name = NULL;	/* the shared set owns it now */
	}
	for (size_t i = 0; i < src->n; i++) {
		struct point p = src->p[i];
		long at = -1;

		p.binary = bin[p.binary];
		p.func += func0;
		if (known[src->p[i].binary])
			at = find_point(ps, p.binary, p.offset, p.kind);
		if (at < 0) {
			if (ps->n >= FUZZ_MAX_POINTS ||
			    !grow((void **)&ps->p, &ps->cap, ps->cap > ps->n ? ps->cap : 2 * ps->n + 256, sizeof(*ps->p)))
				break;	/* as many as fit */
			at = ps->n;
			ps->p[ps->n++] = p;
		}
		img->idx[img->n++] = at;
	}
	return 0;
}

const struct image *images_for(struct images *im, const char *path, bool *fresh, char *err, size_t len)
{
	struct point_set src;
	struct image *img;
	struct stat st;
	int r;

	*fresh = false;
	if (stat(path, &st)) {
		snprintf(err, len, "%s: %s", path, strerror(errno));
		return NULL;
	}
	for (size_t i = 0; i < im->n; i++)
		if (im->v[i].dev == st.st_dev && im->v[i].ino == st.st_ino && im->v[i].mtime_ns == mtime_of(&st))
			return &im->v[i];
	if (!(img = new_image(im, &st))) {
		snprintf(err, len, "out of memory");
		return NULL;
	}
	*fresh = true;
	/* nothing to place (a script, a stripped static shell) is an image without points */
	if (points_select(path, &im->spec, im->seed, &src, err, len)) {
		points_free(&src);
		return img;
	}
	img->own_from = src.own_from;
	r = merge(im->ps, &src, img);
	points_free(&src);
	if (r)
		snprintf(err, len, "cannot add the points of %s: %s", path, strerror(-r));
	return img;
}

void images_free(struct images *im)
{
	for (size_t i = 0; i < im->n; i++)
		free(im->v[i].idx);
	free(im->v);
	memset(im, 0, sizeof(*im));
}
