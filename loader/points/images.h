/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The points of every program the target tree runs (images.c): chosen once
 * per file, the first time a process runs it, and added to one point set, so
 * a point's index (its uprobe cookie) means the same for the whole campaign.
 */
#ifndef FUZZ_IMAGES_H
#define FUZZ_IMAGES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "points.h"

/* One executable file and its points: indices into the shared point set. */
struct image {
	dev_t dev;
	ino_t ino;
	int64_t mtime_ns;
	uint32_t *idx;
	size_t n;
	enum own_source own_from;	/* how its own functions were told */
};

struct images {
	struct point_set *ps;		/* grows as programs are seen; the root's points first */
	struct point_spec spec;
	uint64_t seed;
	struct image *v;
	size_t n, cap;
};

/* Start with the command's own image: `ps` as points_select chose it from `exe`. */
int images_init(struct images *im, struct point_set *ps, const struct point_spec *spec, uint64_t seed,
		const char *exe);
/*
 * The image of the file at `path` (`fresh`: chosen just now), or NULL with `err`.
 * A program where nothing can be placed is an image with no points.
 */
const struct image *images_for(struct images *im, const char *path, bool *fresh, char *err, size_t len);
void images_free(struct images *im);

#endif /* FUZZ_IMAGES_H */
