/* SPDX-License-Identifier: GPL-2.0 */
/*
 * --points: where in the target's binaries to place preemption points
 * (points.c chooses them from ELF symbols, DWARF and a disassembler;
 * probes.c places them as uprobes; output/pointname.c names them).
 */
#ifndef FUZZ_POINTS_H
#define FUZZ_POINTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "point_set.h"

/* What --points asked for. */
struct point_spec {
	bool locks, funcs, insns, auto_size;
	unsigned max_insns;		/* insns: at most this many (a seeded sample) */
};

/* "locks,funcs,insns:500", "auto", "off": 0, or -1 with `err`. */
int points_parse_spec(const char *s, struct point_spec *spec, char *err, size_t len);

/* Choose the points of `exe` (and of its C library if dynamic) for `spec`; insns drawn from `seed`. */
int points_select(const char *exe, const struct point_spec *spec, uint64_t seed, struct point_set *ps,
		  char *err, size_t len);
void points_free(struct point_set *ps);

#endif /* FUZZ_POINTS_H */
