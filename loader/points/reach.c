/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The own code of an executable without a symbol table (stripped): what
 * direct branches and calls reach from main and from the code addresses its
 * code takes (a thread's start routine passed to pthread_create). main is
 * what _start hands the C library. In a static link the C library comes after
 * the program's objects, from __libc_start_main on, so nothing at or above it
 * is followed; in a dynamic one the C library is in another file (calls go
 * through the PLT, outside .text). The C library functions a static program's
 * own code calls are kept too: without names, they stand in for its lock
 * calls. Plain C on libelf and capstone; tests/unit/test_reach.c.
 */
#include <capstone/capstone.h>
#include <stdlib.h>
#include <string.h>

#include "reach.h"

#define MAX_REACHED_INSNS 60000	/* a bound on the walk; a program's own code is far smaller */

enum { CODE = 1, INSN = 2, ENTRY = 4 };	/* what a byte of the region is: walked, an instruction's first, a function's first */

struct walk {
	const uint8_t *code;	/* the region's bytes */
	uint64_t lo, hi;	/* the region's addresses */
	uint8_t *byte;		/* CODE, INSN and ENTRY bits per byte */
	uint64_t *worklist;		/* addresses to walk from */
	size_t nworklist, cap, insns;
	uint64_t lib_hi;	/* the end of the section: the C library lies in [hi, lib_hi) */
	struct reach *out;
};

static bool in_region(const struct walk *w, uint64_t a)
{
	return a >= w->lo && a < w->hi;
}

static bool append(uint64_t **v, size_t *n, size_t *cap, uint64_t a)
{
	if (*n == *cap) {
		size_t c = *cap ? 2 * *cap : 64;
		uint64_t *nv = realloc(*v, c * sizeof(**v));

		if (!nv)
			return false;
		*v = nv, *cap = c;
	}
	(*v)[(*n)++] = a;
	return true;
}

/* A C library function the program's code calls (static link), once. */
static void library_call(struct walk *w, uint64_t a)
{
	struct reach *r = w->out;

	if (a < w->hi || a >= w->lib_hi)
		return;
	for (size_t i = 0; i < r->ncalls; i++)
		if (r->calls[i] == a)
			return;
	append(&r->calls, &r->ncalls, &r->calls_cap, a);
}

static void push(struct walk *w, uint64_t a, bool entry)
{
	if (!in_region(w, a) || (w->byte[a - w->lo] & INSN) || (entry && (w->byte[a - w->lo] & ENTRY)))
		return;
	if (entry)
		w->byte[a - w->lo] |= ENTRY;
	append(&w->worklist, &w->nworklist, &w->cap, a);
}

/* A code address an instruction takes: lea sym(%rip), or mov $sym (non-PIE). */
static uint64_t code_pointer(const cs_insn *in)
{
	const cs_x86 *x = &in->detail->x86;

	if (x->op_count != 2)
		return 0;
	if (in->id == X86_INS_LEA && x->operands[1].type == X86_OP_MEM && x->operands[1].mem.base == X86_REG_RIP)
		return in->address + in->size + x->operands[1].mem.disp;
	if (in->id == X86_INS_MOV && x->operands[1].type == X86_OP_IMM && x->operands[1].imm > 0)
		return x->operands[1].imm;
	return 0;
}

/* Walks straight-line code from a to its end, queueing branch targets and functions. */
static void walk_from(csh cs, cs_insn *in, struct walk *w, uint64_t a)
{
	while (in_region(w, a) && w->insns < MAX_REACHED_INSNS) {
		uint8_t *b = &w->byte[a - w->lo];

		if (*b & INSN)
			return;	/* walked already */
		const uint8_t *p = w->code + (a - w->lo);
		size_t left = w->hi - a;
		uint64_t at = a;

		if (!cs_disasm_iter(cs, &p, &left, &at, in))
			return;
		*b |= CODE | INSN;
		for (unsigned i = 1; i < in->size && a + i < w->hi; i++)
			b[i] |= CODE;
		w->insns++;
		a = at;
		const cs_x86 *x = &in->detail->x86;
		uint64_t target = x->op_count == 1 && x->operands[0].type == X86_OP_IMM ? x->operands[0].imm : 0;
		uint64_t ptr = code_pointer(in);

		if (ptr)
			push(w, ptr, true);
		switch (in->id) {
		case X86_INS_CALL:
			push(w, target, true);
			library_call(w, target);
			break;
		case X86_INS_JMP:
			if (target)
				push(w, target, false);
			library_call(w, target);	/* a tail call */
			return;
		case X86_INS_RET: case X86_INS_RETF: case X86_INS_HLT: case X86_INS_UD2: case X86_INS_INT3:
			return;
		default:
			if (cs_insn_group(cs, in, CS_GRP_JUMP) && target)
				push(w, target, false);	/* a conditional branch: both ways */
		}
	}
}

/* The contiguous runs of walked code, split where a function begins. */
static ssize_t runs(const struct walk *w, struct code_range **out)
{
	size_t n = 0, cap = 0;
	struct code_range *r = NULL;

	for (uint64_t i = 0; i < w->hi - w->lo; i++) {
		if (!(w->byte[i] & CODE))
			continue;
		if ((w->byte[i] & ENTRY) || i == 0 || !(w->byte[i - 1] & CODE)) {
			if (n == cap) {
				struct code_range *nr = realloc(r, (cap = cap ? 2 * cap : 64) * sizeof(*r));

				if (!nr) {
					free(r);
					return -1;
				}
				r = nr;
			}
			r[n++] = (struct code_range){ w->lo + i, 0 };
		}
		r[n - 1].size++;
	}
	*out = r;
	return n;
}

/* The bytes of the code section holding vaddr. */
static const uint8_t *section_code(Elf *elf, uint64_t vaddr, uint64_t *lo, uint64_t *hi)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(elf, scn))) {
		if (!gelf_getshdr(scn, &sh) || !(sh.sh_flags & SHF_EXECINSTR) || sh.sh_type != SHT_PROGBITS ||
		    vaddr < sh.sh_addr || vaddr >= sh.sh_addr + sh.sh_size)
			continue;
		Elf_Data *d = elf_getdata(scn, NULL);

		if (!d || d->d_size != sh.sh_size)
			return NULL;
		*lo = sh.sh_addr, *hi = sh.sh_addr + sh.sh_size;
		return d->d_buf;
	}
	return NULL;
}

/* What _start passes as main (%rdi) and the function it calls (the C library's start). */
static uint64_t find_main(Elf *elf, csh cs, cs_insn *in, uint64_t *libc_start)
{
	GElf_Ehdr eh;
	uint64_t lo, hi, main = 0;

	if (!gelf_getehdr(elf, &eh))
		return 0;
	const uint8_t *code = section_code(elf, eh.e_entry, &lo, &hi), *p;
	size_t left = hi - eh.e_entry;
	uint64_t at = eh.e_entry;

	if (!code)
		return 0;
	p = code + (eh.e_entry - lo);
	for (int i = 0; i < 24 && cs_disasm_iter(cs, &p, &left, &at, in); i++) {
		const cs_x86 *x = &in->detail->x86;

		if (x->op_count == 2 && x->operands[0].type == X86_OP_REG &&
		    (x->operands[0].reg == X86_REG_RDI || x->operands[0].reg == X86_REG_EDI) && code_pointer(in))
			main = code_pointer(in);
		if (in->id == X86_INS_CALL) {
			*libc_start = x->operands[0].type == X86_OP_IMM ? x->operands[0].imm : 0;
			break;
		}
	}
	return main;
}

int reach_from_main(Elf *elf, bool static_link, struct reach *r)
{
	struct walk w = { .out = r };
	uint64_t libc_start = 0, main;
	ssize_t n = -1;
	csh cs;

	memset(r, 0, sizeof(*r));
	if (cs_open(CS_ARCH_X86, CS_MODE_64, &cs) != CS_ERR_OK)
		return -1;
	cs_option(cs, CS_OPT_DETAIL, CS_OPT_ON);
	cs_insn *in = cs_malloc(cs);

	if (!in || !(main = find_main(elf, cs, in, &libc_start)) || !(w.code = section_code(elf, main, &w.lo, &w.hi))) {
		n = 0;	/* no main found: nothing is known to be the program's own */
		goto out;
	}
	w.lib_hi = w.hi;
	if (static_link && libc_start > main && libc_start < w.hi)
		w.hi = libc_start;
	if (!(w.byte = calloc(w.hi - w.lo + 1, 1)))
		goto out;
	r->main = main;
	push(&w, main, true);
	while (w.nworklist)
		walk_from(cs, in, &w, w.worklist[--w.nworklist]);
	n = runs(&w, &r->ranges);
	r->nranges = n > 0 ? n : 0;
out:
	if (in)
		cs_free(in, 1);
	cs_close(&cs);
	free(w.byte);
	free(w.worklist);
	if (n < 0)
		reach_free(r);
	return n < 0 ? -1 : 0;
}

void reach_free(struct reach *r)
{
	free(r->ranges);
	free(r->calls);
	memset(r, 0, sizeof(*r));
}
