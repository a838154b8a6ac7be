/* SPDX-License-Identifier: GPL-2.0 */
/*
 * --points: where in the target's binaries to place preemption points
 * (points.c chooses them from ELF symbols, DWARF and a disassembler;
 * probes.c places them as uprobes; pointname.c names them in reports).
 */
#ifndef FUZZ_POINTS_H
#define FUZZ_POINTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum point_kind { POINT_LOCK, POINT_LOCK_RET, POINT_FUNC, POINT_INSN };

/* What --points asked for. */
struct point_spec {
	bool locks, funcs, insns, auto_size;
	unsigned max_insns;		/* insns: at most this many (a seeded sample) */
};

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
	char *paths[2];			/* the executable, and the C library of a dynamic one */
	unsigned npaths;
	bool own_from_dwarf;		/* the program's own functions came from its debug info */
};

/* "locks,funcs,insns:500", "auto", "off": 0, or -1 with `err`. */
int points_parse_spec(const char *s, struct point_spec *spec, char *err, size_t len);

/* Choose the points of `exe` (and of its C library if dynamic) for `spec`; insns drawn from `seed`. */
int points_select(const char *exe, const struct point_spec *spec, uint64_t seed, struct point_set *ps,
		  char *err, size_t len);
void points_free(struct point_set *ps);

/* "funcA+0x23 (twostage.c:41)", or "libc.so.6:pthread_mutex_lock+0x0 (return)". */
void points_name(const struct point_set *ps, uint32_t idx, char *buf, size_t len);

#endif /* FUZZ_POINTS_H */
