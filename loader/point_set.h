/* SPDX-License-Identifier: GPL-2.0 */
/* The chosen --points, as plain data: made by points/, placed by probes.c, named by output/. */
#ifndef FUZZ_POINT_SET_H
#define FUZZ_POINT_SET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum point_kind { POINT_LOCK, POINT_LOCK_RET, POINT_FUNC, POINT_INSN };

enum { POINT_MAX_BINARIES = 64 };

/* Where the executable's own functions came from. */
enum own_source { OWN_BY_NAME, OWN_FROM_DWARF, OWN_FROM_MAIN, OWN_NONE_SYSTEM };

struct point {
	uint64_t offset;		/* in the file, where the uprobe goes */
	uint64_t vaddr;			/* the instruction's address in the ELF */
	uint32_t binary;		/* index into point_set.paths */
	uint32_t func;			/* index into point_set.funcs */
	uint8_t kind;			/* enum point_kind */
};

struct point_func {
	char *name;
	uint64_t vaddr, size;
	uint32_t binary;
};

struct point_set {
	struct point *p;
	size_t n, cap;
	struct point_func *funcs;
	size_t nfuncs, funcs_cap;
	/* the executable, the C library of a dynamic one; then the programs the target tree runs */
	char *paths[POINT_MAX_BINARIES];
	unsigned npaths;
	enum own_source own_from;	/* how the executable's own functions were told */
};

#endif /* FUZZ_POINT_SET_H */
