/* SPDX-License-Identifier: GPL-2.0 */
/* The programs of the target tree and their points (loader/points/images.c). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "images.h"

static struct point_set ps;
static struct images im;

static void start(void)
{
	struct point_spec spec;
	char err[256];

	cr_assert_eq(points_parse_spec("auto", &spec, err, sizeof(err)), 0);
	cr_assert_eq(points_select("/proc/self/exe", &spec, 7, &ps, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(images_init(&im, &ps, &spec, 7, "/proc/self/exe"), 0);
}

static void stop(void)
{
	images_free(&im);
	points_free(&ps);
}

Test(images, the_command_is_the_first_image, .init = start, .fini = stop)
{
	const struct image *img;
	char err[256];
	bool fresh = true;

	cr_assert_eq(im.n, 1);
	cr_assert_eq(im.v[0].n, ps.n, "all the command's points");
	img = images_for(&im, "/proc/self/exe", &fresh, err, sizeof(err));
	cr_assert(img && !fresh, "the same file is found again, not chosen again");
	cr_assert_eq(img, &im.v[0]);
}

/* Another dynamic program: its own binary is added, the C library's lock calls are shared. */
Test(images, a_second_program_shares_the_c_library, .init = start, .fini = stop)
{
	size_t before = ps.n, libc_points = 0;
	unsigned npaths = ps.npaths;
	const struct image *img;
	const uint32_t *idx;
	char err[256];
	bool fresh;

	cr_assert_eq(npaths, 2, "this test and its C library");
	img = images_for(&im, "/bin/true", &fresh, err, sizeof(err));
	cr_assert(img && fresh, "%s", err);
	cr_assert_gt(img->n, 0, "/bin/true calls no lock, but its C library has them");
	for (size_t i = 0; i < img->n; i++) {
		const struct point *p = &ps.p[img->idx[i]];

		cr_assert_lt(img->idx[i], ps.n);
		cr_assert_lt(p->binary, ps.npaths);
		cr_assert_lt(p->func, ps.nfuncs);
		if (p->binary == 1) {
			libc_points++;
			cr_assert_lt(img->idx[i], before, "a lock call of the shared C library keeps its index");
		}
	}
	cr_assert_gt(libc_points, 0);
	cr_assert_leq(ps.npaths, npaths + 1, "at most /bin/true itself is new");
	idx = img->idx;
	img = images_for(&im, "/usr/bin/true", &fresh, err, sizeof(err));
	cr_assert(img && !fresh && img->idx == idx, "the same file by another name is the same image");
}

/* A script: nothing to place, an image all the same (its process is answered at once). */
Test(images, a_script_has_no_points, .init = start, .fini = stop)
{
	char path[] = "/tmp/scx_fuzz_images_XXXXXX", err[256];
	const struct image *img;
	size_t before = ps.n;
	bool fresh;
	int fd = mkstemp(path);

	cr_assert_geq(fd, 0);
	cr_assert_eq(write(fd, "#!/bin/sh\nexit 0\n", 17), 17);
	close(fd);
	img = images_for(&im, path, &fresh, err, sizeof(err));
	unlink(path);
	cr_assert(img && fresh);
	cr_assert_eq(img->n, 0);
	cr_assert_eq(ps.n, before);
	cr_assert_null(images_for(&im, "/nonexistent/prog", &fresh, err, sizeof(err)));
	cr_assert(strstr(err, "/nonexistent/prog"), "%s", err);
}
