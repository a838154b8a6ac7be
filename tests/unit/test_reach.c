/* SPDX-License-Identifier: GPL-2.0 */
/*
 * --points in stripped executables (loader/points/reach.c): the code main
 * reaches, checked against the same binary's symbols before it was stripped
 * (tests/fixtures/own_funcs.c, static and dynamic).
 */
#include <criterion/criterion.h>
#include <string.h>

#include "points.h"

static const char *const own[] = { "main", "bump_counter", "worker_loop", "report" };

/* The address ranges of own[] in the unstripped binary, from its symbols. */
static void own_ranges(const char *unstripped, uint64_t lo[4], uint64_t hi[4])
{
	struct point_spec spec;
	struct point_set ps;
	char err[256];

	cr_assert_eq(points_parse_spec("funcs", &spec, err, sizeof(err)), 0);
	cr_assert_eq(points_select(unstripped, &spec, 1, &ps, err, sizeof(err)), 0, "%s", err);
	for (int k = 0; k < 4; k++) {
		lo[k] = hi[k] = 0;
		for (size_t i = 0; i < ps.nfuncs; i++)
			if (!strcmp(ps.funcs[i].name, own[k]) && ps.funcs[i].binary == 0)
				lo[k] = ps.funcs[i].vaddr, hi[k] = lo[k] + ps.funcs[i].size;
		cr_assert(hi[k], "%s in %s", own[k], unstripped);
	}
	points_free(&ps);
}

/* Every point in the stripped copy is inside an own function, and each that runs has points. */
static void check_stripped(const char *unstripped, const char *stripped, bool inlined, struct point_set *ps)
{
	uint64_t lo[4], hi[4];
	size_t in_own[4] = { 0 };
	struct point_spec spec;
	char err[256];

	own_ranges(unstripped, lo, hi);
	cr_assert_eq(points_parse_spec("auto", &spec, err, sizeof(err)), 0);
	cr_assert_eq(points_select(stripped, &spec, 7, ps, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(ps->own_from, OWN_FROM_MAIN);
	for (size_t i = 0; i < ps->n; i++) {
		const struct point *p = &ps->p[i];
		int k = 0;

		if (p->binary != 0 || (p->kind != POINT_FUNC && p->kind != POINT_INSN))
			continue;
		while (k < 4 && !(p->vaddr >= lo[k] && p->vaddr < hi[k]))
			k++;
		cr_assert_lt(k, 4, "a point at %#lx (%s) is not in the program's own code", (unsigned long)p->vaddr,
			     ps->funcs[p->func].name);
		in_own[k]++;
	}
	for (int k = 0; k < 4; k++)	/* -O2 inlines bump_counter: its own copy never runs */
		cr_assert(in_own[k] || (inlined && k == 1), "%s, reached from main, has points", own[k]);
}

Test(reach, a_stripped_static_binary)
{
	struct point_set ps;

	check_stripped("build/fixtures/own-static", "build/fixtures/own-stripped", false, &ps);
	cr_assert(ps.funcs[ps.p[0].func].name, "named");
	points_free(&ps);
}

Test(reach, a_stripped_dynamic_binary_keeps_its_libc_lock_calls)
{
	struct point_set ps;
	bool lock = false;

	check_stripped("build/fixtures/own-dynamic", "build/fixtures/own-dynamic-stripped", true, &ps);
	for (size_t i = 0; i < ps.n; i++)
		lock |= ps.p[i].kind == POINT_LOCK && !strcmp(ps.funcs[ps.p[i].func].name, "pthread_mutex_lock");
	cr_assert(lock, "pthread_mutex_lock in its C library");
	points_free(&ps);
}

Test(reach, main_is_named)
{
	struct point_set ps;
	bool named = false;

	check_stripped("build/fixtures/own-dynamic", "build/fixtures/own-dynamic-stripped", true, &ps);
	for (size_t i = 0; i < ps.nfuncs; i++)
		named |= !strcmp(ps.funcs[i].name, "main") && ps.funcs[i].binary == 0;
	cr_assert(named, "main, found from _start, is named");
	points_free(&ps);
}

/* The distribution's stripped programs (shells, make) are not the code under test; a copy elsewhere is. */
Test(reach, a_program_of_the_distribution_gets_no_own_points)
{
	struct point_spec spec;
	struct point_set ps;
	char err[256];
	size_t own = 0;

	cr_assert_eq(points_parse_spec("auto", &spec, err, sizeof(err)), 0);
	cr_assert_eq(points_select("/bin/dash", &spec, 7, &ps, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(ps.own_from, OWN_NONE_SYSTEM);
	for (size_t i = 0; i < ps.n; i++)
		own += ps.p[i].binary == 0;
	cr_assert_eq(own, 0, "no point in dash itself");
	cr_assert_gt(ps.n, 0, "its C library's lock calls");
	points_free(&ps);
	cr_assert_eq(points_select("build/fixtures/dash", &spec, 7, &ps, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(ps.own_from, OWN_FROM_MAIN);
	for (size_t i = 0; i < ps.n; i++)
		own += ps.p[i].binary == 0 && ps.p[i].kind == POINT_INSN;
	cr_assert_gt(own, 100, "a copy outside the system's directories: its own code (%zu)", own);
	points_free(&ps);
}
