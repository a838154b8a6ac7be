/* SPDX-License-Identifier: GPL-2.0 */
/* An executable's own code when it has no symbol table: what main reaches (reach.c). */
#ifndef FUZZ_REACH_H
#define FUZZ_REACH_H

#include <gelf.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

struct code_range {
	uint64_t vaddr, size;	/* a function, or a piece of one apart from its entry */
};

struct reach {
	uint64_t main;			/* 0: _start names no main, and nothing was reached */
	struct code_range *ranges;	/* address-ordered, each beginning at an instruction */
	size_t nranges;
	uint64_t *calls;		/* static link: the C library functions that code calls */
	size_t ncalls, calls_cap;
};

/*
 * The code reached from main by direct calls and branches and through the code
 * addresses it takes; static_link: the C library is linked in, from
 * __libc_start_main on, and is not followed. -1: out of memory. reach_free() after.
 */
int reach_from_main(Elf *elf, bool static_link, struct reach *r);
void reach_free(struct reach *r);

#endif /* FUZZ_REACH_H */
