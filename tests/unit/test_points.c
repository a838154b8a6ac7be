/* SPDX-License-Identifier: GPL-2.0 */
/* Choosing --points (loader/points.c), on this test program's own binary. */
#include <criterion/criterion.h>
#include <string.h>

#include "points.h"
#include "scx_fuzz.h"
#include "pointname.h"
#include "runtime.h"

Test(points, spec_parsing)
{
	struct point_spec s;
	char err[256];

	cr_assert_eq(points_parse_spec("locks", &s, err, sizeof(err)), 0);
	cr_assert(s.locks && !s.funcs && !s.insns);
	cr_assert_eq(points_parse_spec("funcs,insns:300", &s, err, sizeof(err)), 0);
	cr_assert(!s.locks && s.funcs && s.insns && s.max_insns == 300);
	cr_assert_eq(points_parse_spec("auto", &s, err, sizeof(err)), 0);
	cr_assert(s.locks && s.funcs && s.insns && s.auto_size);
	cr_assert_eq(points_parse_spec("off", &s, err, sizeof(err)), 0);
	cr_assert(!s.locks && !s.funcs && !s.insns);
	cr_assert_neq(points_parse_spec("locks,everything", &s, err, sizeof(err)), 0);
	cr_assert(strstr(err, "invalid --points"), "%s", err);
	cr_assert_neq(points_parse_spec("insns:0", &s, err, sizeof(err)), 0);
	cr_assert_neq(points_parse_spec("insns:99999999", &s, err, sizeof(err)), 0);
	cr_assert_neq(points_parse_spec("", &s, err, sizeof(err)), 0);
	cr_assert_neq(points_parse_spec("locks,off", &s, err, sizeof(err)), 0, "off stands alone");
}

static bool has_func_point(const struct point_set *ps, const char *name, enum point_kind kind)
{
	for (size_t i = 0; i < ps->n; i++)
		if (ps->p[i].kind == kind && !strcmp(ps->funcs[ps->p[i].func].name, name))
			return true;
	return false;
}

/* This binary is dynamic and built with -g: own functions from DWARF, locks in its libc. */
Test(points, select_in_a_dynamic_binary)
{
	struct point_spec spec;
	struct point_set ps, again;
	char err[256], name[512];
	size_t insns = 0;

	cr_assert_eq(points_parse_spec("locks,funcs,insns:50", &spec, err, sizeof(err)), 0);
	cr_assert_eq(points_select("/proc/self/exe", &spec, 7, &ps, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(ps.own_from, OWN_FROM_DWARF, "the unit tests are built with -g");
	cr_assert(has_func_point(&ps, "points_parse_spec", POINT_FUNC), "an own function's entry");
	cr_assert(!has_func_point(&ps, "_start", POINT_FUNC), "not the C runtime's");
	cr_assert(has_func_point(&ps, "pthread_mutex_lock", POINT_LOCK), "an acquire's entry, in libc");
	cr_assert(has_func_point(&ps, "pthread_mutex_unlock", POINT_LOCK), "a release's entry");
	cr_assert_eq(ps.npaths, 2, "the executable and its C library");
	for (size_t i = 0; i < ps.n; i++) {
		insns += ps.p[i].kind == POINT_INSN;
		cr_assert_lt(ps.p[i].func, ps.nfuncs);
		if (ps.p[i].kind == POINT_INSN) {
			const struct point_func *f = &ps.funcs[ps.p[i].func];

			cr_assert(ps.p[i].vaddr > f->vaddr && ps.p[i].vaddr < f->vaddr + f->size,
				  "an instruction inside its function, past the entry");
		}
	}
	cr_assert_eq(insns, 50, "a sample of the asked size");
	cr_assert_eq(points_select("/proc/self/exe", &spec, 7, &again, err, sizeof(err)), 0);
	cr_assert_eq(again.n, ps.n);
	for (size_t i = 0; i < ps.n; i++)
		cr_assert(again.p[i].offset == ps.p[i].offset && again.p[i].kind == ps.p[i].kind,
			  "the same seed, the same sample");
	points_free(&again);
	for (size_t i = 0; i < ps.n; i++) {
		if (ps.p[i].kind != POINT_FUNC || strcmp(ps.funcs[ps.p[i].func].name, "points_parse_spec"))
			continue;
		points_name(&ps, i, name, sizeof(name));
		cr_assert(strstr(name, "points_parse_spec+0x0 (spec.c:"), "named with its line: %s", name);
	}
	for (size_t i = 0; i < ps.n; i++) {
		if (ps.p[i].kind != POINT_LOCK)
			continue;
		points_name(&ps, i, name, sizeof(name));
		cr_assert(strstr(name, "libc.so.6:"), "a lock call in the C library is named so: %s", name);
		break;
	}
	points_free(&ps);
}

Test(points, refuses_what_is_not_elf)
{
	struct point_spec spec;
	struct point_set ps;
	char err[256];

	points_parse_spec("funcs", &spec, err, sizeof(err));
	cr_assert_neq(points_select("/proc/self/status", &spec, 1, &ps, err, sizeof(err)), 0);
	cr_assert(strstr(err, "not an ELF file"), "%s", err);
	cr_assert_neq(points_select("/nonexistent/x", &spec, 1, &ps, err, sizeof(err)), 0);
	cr_assert(strstr(err, "cannot open"), "%s", err);
}

Test(points, runtime_functions_told_by_name)
{
	cr_assert(runtime_func("printf", NULL, true), "the C library's, in a static binary");
	cr_assert(!runtime_func("printf", NULL, false), "a dynamic binary has no libc code of its own");
	cr_assert(runtime_func("sysmalloc", "malloc.o", true), "a local function of a libc object");
	cr_assert(!runtime_func("worker", "queue.c", true), "a local function of the program's file");
	cr_assert(runtime_func("frame_dummy", "crtstuff.c", false), "the start-up code's");
	cr_assert(runtime_func("__libc_start_main", NULL, false));
	cr_assert(!runtime_func("_ZN5Queue4pushEi", NULL, true), "a C++ program's own method");
	cr_assert(runtime_func("_ZNSt6vectorIiSaIiEE9push_backEOi", NULL, true), "std::vector's");
	cr_assert(runtime_func("_Znwm", NULL, true), "operator new");
}

static bool named_in(const char *name, const char *const *names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(name, names[i]))
			return true;
	return false;
}

/* Built as releases are (-O1 -static, no -g): its own functions from the symbols, not libc's. */
Test(points, own_functions_of_a_static_binary_without_debug_info)
{
	static const char *const own[] = { "main", "bump_counter", "worker_loop", "report" };
	static const char *const libc[] = { "printf", "pthread_create", "malloc", "memcpy", "abort" };
	struct point_spec spec;
	struct point_set ps;
	char err[256];
	size_t insns = 0;

	cr_assert_eq(points_parse_spec("auto", &spec, err, sizeof(err)), 0);
	cr_assert_eq(points_select("build/fixtures/own-static", &spec, 7, &ps, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(ps.own_from, OWN_BY_NAME);
	for (size_t i = 0; i < sizeof(own) / sizeof(own[0]); i++)
		cr_assert(has_func_point(&ps, own[i], POINT_FUNC), "own function %s has its entry point", own[i]);
	for (size_t i = 0; i < sizeof(libc) / sizeof(libc[0]); i++)
		cr_assert(!has_func_point(&ps, libc[i], POINT_FUNC), "%s is the C library's", libc[i]);
	cr_assert(has_func_point(&ps, "pthread_mutex_lock", POINT_LOCK), "lock calls, in the linked-in libc");
	for (size_t i = 0; i < ps.n; i++) {
		const char *fn = ps.funcs[ps.p[i].func].name;

		if (ps.p[i].kind == POINT_INSN || ps.p[i].kind == POINT_FUNC)
			cr_assert(named_in(fn, own, sizeof(own) / sizeof(own[0])), "a point in %s, not own code", fn);
		insns += ps.p[i].kind == POINT_INSN;
	}
	cr_assert(insns > 10 && insns < 400, "every instruction of its few own functions (%zu)", insns);
	points_free(&ps);
}
