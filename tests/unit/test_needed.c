/* SPDX-License-Identifier: GPL-2.0 */
/* A program's own shared libraries (loader/points/needed.c) and the points placed in them. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "needed.h"
#include "pointname.h"
#include "points.h"

#define PAIRDYN "build/progs/pairdyn"	/* needs libpairlib.so at $ORIGIN, and libc */

static bool ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), t = strlen(tail);

	return n >= t && !strcmp(s + n - t, tail);
}

Test(needed, system_directories)
{
	cr_assert(system_library("/usr/lib/x86_64-linux-gnu/libc.so.6"));
	cr_assert(system_library("/lib64/ld-linux-x86-64.so.2"));
	cr_assert(!system_library("/usr/local/lib/libfoo.so"), "a library installed by hand is the program's");
	cr_assert(!system_library("/opt/app/lib/libapp.so"));
	cr_assert(!system_library("/usr/library/libx.so"), "a prefix, not a directory");
}

Test(needed, a_library_at_origin_is_the_programs_own)
{
	char *libs[8];
	size_t n;

	unsetenv("LD_LIBRARY_PATH");
	n = own_libraries(PAIRDYN, libs, 8);
	cr_assert_eq(n, 1, "libpairlib.so and not libc (%zu)", n);
	cr_assert(ends_with(libs[0], "/build/progs/libpairlib.so"), "%s", libs[0]);
	cr_assert_eq(libs[0][0], '/', "a real path");
	free(libs[0]);
	cr_assert_eq(own_libraries("/bin/sh", libs, 8), 0, "a shell that needs only libc has none");
	setenv("LD_LIBRARY_PATH", "/lib/x86_64-linux-gnu:/usr/lib/x86_64-linux-gnu", 1);
	cr_assert_eq(own_libraries("/bin/sh", libs, 8), 0, "found through LD_LIBRARY_PATH, but a system one");
	unsetenv("LD_LIBRARY_PATH");
	cr_assert_eq(own_libraries("/nonexistent/prog", libs, 8), 0);
	cr_assert_eq(own_libraries(PAIRDYN, libs, 0), 0, "no room: nothing");
}

Test(needed, the_library_gets_points_in_its_own_functions)
{
	struct point_spec spec;
	struct point_set ps;
	char err[256], name[512];
	bool publish = false, lib_lock = false;

	cr_assert_eq(points_parse_spec("auto", &spec, err, sizeof(err)), 0);
	cr_assert_eq(points_select(PAIRDYN, &spec, 7, &ps, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(ps.npaths, 3, "the program, its C library, its own library (%u)", ps.npaths);
	for (size_t i = 0; i < ps.n; i++) {
		const struct point *p = &ps.p[i];
		const char *path = ps.paths[p->binary];

		if (p->kind == POINT_INSN && ends_with(path, "libpairlib.so") &&
		    !strcmp(ps.funcs[p->func].name, "pair_publish")) {
			publish = true;
			points_name(&ps, i, name, sizeof(name));
			cr_assert(!strncmp(name, "libpairlib.so:pair_publish+0x", 29), "%s", name);
		}
		if (p->kind == POINT_LOCK)
			lib_lock |= ends_with(path, "libc.so.6");
		if (ends_with(path, "libc.so.6"))
			cr_assert_eq(p->kind, POINT_LOCK, "only lock calls in the C library");
	}
	cr_assert(publish, "an instruction inside pair_publish, in the library");
	cr_assert(lib_lock, "the lock calls, in the C library");
	points_free(&ps);
}
