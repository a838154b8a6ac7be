/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Choosing --points in the target's binaries: the entries of the pthread
 * lock, condition and semaphore calls (in the executable if static,
 * in its C library if dynamic), the entries of the program's own functions
 * (from its DWARF when it has some, else from its symbols, else what main
 * reaches: reach.c), and instruction
 * boundaries inside those functions, found by capstone and sampled with the
 * seed. Plain C on libelf, libdw and capstone; tests/unit/test_points.c.
 */
#include <capstone/capstone.h>
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <errno.h>
#include <inttypes.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "elfsyms.h"
#include "needed.h"
#include "reach.h"
#include "fuzz_rand.h"
#include "points.h"
#include "runtime.h"
#include "scx_fuzz.h"

/* --points auto: all instructions up to this many; else these samples (every trap costs) */
#define AUTO_ALL_INSNS 4000
#define AUTO_SAMPLE_INSNS 1000
#define AUTO_SAMPLE_FUNCS 500

/*
 * The synchronisation calls whose entries are points (glibc names): before
 * an acquire, and before a release, where a stopped lock holder makes its
 * rivals block on it and then hands the lock over (measured on SCTBench's
 * queue: 10 of 20 runs with release entries, 0 of 20 with release returns).
 */
static const char *const lock_calls[] = {
	"pthread_mutex_lock", "pthread_mutex_unlock", "pthread_mutex_trylock", "pthread_mutex_timedlock",
	"pthread_rwlock_rdlock", "pthread_rwlock_wrlock", "pthread_rwlock_unlock",
	"pthread_cond_wait", "pthread_cond_timedwait", "pthread_cond_signal", "pthread_cond_broadcast",
	"sem_wait", "sem_timedwait", "sem_post", "pthread_spin_lock", "pthread_spin_unlock",
	"pthread_join", "pthread_barrier_wait", NULL,
};

static int add_point(struct point_set *ps, uint64_t offset, uint64_t vaddr, uint32_t bin, uint32_t func,
		     enum point_kind kind)
{
	if (ps->n >= FUZZ_MAX_POINTS)
		return -1;
	if (ps->n == ps->cap) {
		size_t cap = ps->cap ? 2 * ps->cap : 256;
		struct point *p = realloc(ps->p, cap * sizeof(*p));

		if (!p)
			return -1;
		ps->p = p;
		ps->cap = cap;
	}
	ps->p[ps->n++] = (struct point){ offset, vaddr, bin, func, kind };
	return 0;
}

static int add_func(struct point_set *ps, const char *name, uint64_t vaddr, uint64_t size, uint32_t bin)
{
	if (ps->nfuncs == ps->funcs_cap) {
		size_t cap = ps->funcs_cap ? 2 * ps->funcs_cap : 64;
		struct point_func *f = realloc(ps->funcs, cap * sizeof(*f));

		if (!f)
			return -1;
		ps->funcs = f;
		ps->funcs_cap = cap;
	}
	ps->funcs[ps->nfuncs] = (struct point_func){ strdup(name), vaddr, size, bin };
	return ps->funcs[ps->nfuncs++].name ? 0 : -1;
}

struct own_ctx {
	struct point_set *ps;
	uint32_t bin;
	uint64_t *entries;	/* from DWARF; NULL: by name */
	size_t nentries;
	bool static_link;	/* the C library is linked in */
};

static int take_own(void *arg, const char *name, const char *file, GElf_Sym *sym)
{
	struct own_ctx *c = arg;
	bool own = false;

	if (c->entries) {
		for (size_t i = 0; i < c->nentries && !own; i++)
			own = c->entries[i] == sym->st_value;
	} else {
		own = !runtime_func(name, file, c->static_link);
	}
	return own ? add_func(c->ps, name, sym->st_value, sym->st_size, c->bin) : 0;
}

struct lock_ctx {
	struct point_set *ps;
	Elf *elf;
	uint32_t bin;
};

static int take_lock(void *arg, const char *name, const char *file, GElf_Sym *sym)
{
	struct lock_ctx *c = arg;
	GElf_Shdr sh;
	uint64_t off;

	for (int i = 0; lock_calls[i]; i++) {
		if (strcmp(name, lock_calls[i]))
			continue;
		if (!code_section(c->elf, sym->st_value, &sh) ||
		    add_func(c->ps, name, sym->st_value, sym->st_size, c->bin))
			return -1;
		off = sym->st_value - sh.sh_addr + sh.sh_offset;
		if (add_point(c->ps, off, sym->st_value, c->bin, c->ps->nfuncs - 1, POINT_LOCK))
			return -1;
	}
	return 0;
}

/* A stripped executable's own code, as functions named by address (main by name). */
static int reached_funcs(const struct reach *r, struct point_set *ps)
{
	char name[32];

	for (size_t i = 0; i < r->nranges; i++) {
		if (r->ranges[i].vaddr == r->main)
			snprintf(name, sizeof(name), "main");
		else
			snprintf(name, sizeof(name), "sub_%" PRIx64, r->ranges[i].vaddr);
		if (add_func(ps, name, r->ranges[i].vaddr, r->ranges[i].size, 0))
			return -1;
	}
	return 0;
}

/* Without names, the C library functions a stripped static program calls stand in for its lock calls. */
static int library_call_points(Elf *elf, const struct reach *r, struct point_set *ps)
{
	char name[32];
	GElf_Shdr sh;

	for (size_t i = 0; i < r->ncalls; i++) {
		snprintf(name, sizeof(name), "libc_%" PRIx64, r->calls[i]);
		if (!code_section(elf, r->calls[i], &sh) || add_func(ps, name, r->calls[i], 1, 0) ||
		    add_point(ps, r->calls[i] - sh.sh_addr + sh.sh_offset, r->calls[i], 0, ps->nfuncs - 1, POINT_LOCK))
			return 1;
	}
	return 0;
}

/* Every instruction boundary inside functions [f0, f1), past each entry. */
static int own_insns(Elf *elf, const struct point_set *ps, size_t f0, size_t f1, uint64_t **out, uint32_t **fn_of)
{
	size_t n = 0, cap = 0;
	uint64_t *v = NULL;
	uint32_t *f = NULL;
	csh cs;

	if (cs_open(CS_ARCH_X86, CS_MODE_64, &cs) != CS_ERR_OK)
		return -1;
	cs_insn *insn = cs_malloc(cs);

	for (size_t i = f0; insn && i < f1; i++) {
		const struct point_func *fn = &ps->funcs[i];
		GElf_Shdr sh;
		Elf_Scn *scn = code_section(elf, fn->vaddr, &sh);
		Elf_Data *d = scn ? elf_getdata(scn, NULL) : NULL;

		if (!d || fn->vaddr + fn->size > sh.sh_addr + d->d_size)
			continue;
		const uint8_t *code = (const uint8_t *)d->d_buf + (fn->vaddr - sh.sh_addr);
		size_t size = fn->size;
		uint64_t addr = fn->vaddr;
		bool first = true;

		while (cs_disasm_iter(cs, &code, &size, &addr, insn)) {
			if (first || insn->id == X86_INS_INT3 || insn->id == X86_INS_HLT) {
				first = false;
				continue;
			}
			if (n == cap) {
				cap = cap ? 2 * cap : 1024;
				uint64_t *nv = realloc(v, cap * sizeof(*v));
				uint32_t *nf = nv ? realloc(f, cap * sizeof(*f)) : NULL;

				if (nv)
					v = nv;
				if (!nf)
					break;
				f = nf;
			}
			v[n] = insn->address;
			f[n++] = i;
		}
	}
	if (insn)
		cs_free(insn, 1);
	cs_close(&cs);
	*out = v;
	*fn_of = f;
	return n;
}

/* A seeded sample of k of the n boundaries (all if n <= k), kept in address order. */
static size_t sample(uint64_t *v, uint32_t *f, size_t n, size_t k, uint64_t seed)
{
	if (n <= k)
		return n;
	for (size_t i = 0; i < k; i++) {	/* partial Fisher-Yates */
		size_t j = i + fuzz_mix64(seed ^ (i * 0x9e3779b97f4a7c15ULL)) % (n - i);
		uint64_t tv = v[i];
		uint32_t tf = f[i];

		v[i] = v[j], f[i] = f[j], v[j] = tv, f[j] = tf;
	}
	return k;
}

/*
 * The own functions of one binary (index bin: the executable or one of its own
 * libraries) and instruction boundaries inside them, as points. 1: out of room.
 */
static int own_points(const struct elf_file *ef, uint32_t bin, const struct point_spec *spec, uint64_t seed,
		      bool system, struct point_set *ps)
{
	/* a library (bin > 0) has no interpreter either, but never the C library linked in */
	struct own_ctx own = { .ps = ps, .bin = bin, .static_link = !bin && !ef->dynamic };
	struct reach reach = { 0 };
	size_t f0 = ps->nfuncs, nown, nfn, ni = 0;
	uint64_t *insns = NULL, *fns = NULL;
	uint32_t *fn_of = NULL, *fidx = NULL;
	int n, ret = -1;

	own.nentries = dwarf_entries(ef->elf, &own.entries);
	if (!bin)
		ps->own_from = own.nentries ? OWN_FROM_DWARF : has_symtab(ef->elf) ? OWN_BY_NAME : OWN_FROM_MAIN;
	/* a stripped program of the distribution (a shell, make): not the code under test */
	if (!bin && ps->own_from == OWN_FROM_MAIN && system) {
		ps->own_from = OWN_NONE_SYSTEM;
		ret = 0;
		goto out;
	}
	if (!bin && ps->own_from == OWN_FROM_MAIN) {
		if (reach_from_main(ef->elf, own.static_link, &reach) ||
		    ((spec->funcs || spec->insns) && reached_funcs(&reach, ps)))
			goto out;
	} else if ((spec->funcs || spec->insns) && for_each_func(ef->elf, take_own, &own)) {
		goto out;
	}
	nfn = nown = ps->nfuncs - f0;
	fns = calloc(nown ? nown : 1, sizeof(*fns));
	fidx = calloc(nown ? nown : 1, sizeof(*fidx));
	if (!fns || !fidx)
		goto out;
	if (spec->insns && (n = own_insns(ef->elf, ps, f0, ps->nfuncs, &insns, &fn_of)) > 0)
		ni = n;
	for (size_t i = 0; i < nown; i++)
		fns[i] = ps->funcs[f0 + i].vaddr, fidx[i] = f0 + i;
	/* auto: every instruction of a small binary; of a large one, a sample (traps cost) */
	if (spec->auto_size && ni > AUTO_ALL_INSNS) {
		ni = sample(insns, fn_of, ni, AUTO_SAMPLE_INSNS, seed);
		nfn = sample(fns, fidx, nown, AUTO_SAMPLE_FUNCS, seed + 1);
	} else {
		ni = sample(insns, fn_of, ni, spec->max_insns, seed);
	}
	ret = 0;
	for (size_t i = 0; spec->funcs && i < nfn && !ret; i++) {
		GElf_Shdr sh;

		if (code_section(ef->elf, fns[i], &sh))
			ret = add_point(ps, fns[i] - sh.sh_addr + sh.sh_offset, fns[i], bin, fidx[i], POINT_FUNC) ? 1 : 0;
	}
	for (size_t i = 0; i < ni && !ret; i++) {
		GElf_Shdr sh;

		if (code_section(ef->elf, insns[i], &sh))
			ret = add_point(ps, insns[i] - sh.sh_addr + sh.sh_offset, insns[i], bin, fn_of[i], POINT_INSN) ? 1 : 0;
	}
	if (!ret && spec->locks && own.static_link)
		ret = library_call_points(ef->elf, &reach, ps);
out:
	reach_free(&reach);
	free(fns);
	free(fidx);
	free(insns);
	free(fn_of);
	free(own.entries);
	return ret;
}

/* The lock calls of the C library a dynamic program maps. 1: out of room. */
static int libc_locks(struct point_set *ps, char *err, size_t len)
{
	struct elf_file lf;
	char *libc = find_libc();
	uint32_t bin = ps->npaths;
	int n;

	if (!libc || ps->npaths >= POINT_MAX_BINARIES || elfsyms_open(libc, &lf, err, len)) {
		free(libc);
		return 0;
	}
	ps->paths[ps->npaths++] = libc;
	n = for_each_func(lf.elf, take_lock, &(struct lock_ctx){ ps, lf.elf, bin });
	elfsyms_close(&lf);
	return n ? 1 : 0;
}

/* The program's own shared libraries (needed.c), each a binary with its own points. */
static int own_library_points(const char *exe, const struct point_spec *spec, uint64_t seed,
			      struct point_set *ps)
{
	char *libs[POINT_MAX_BINARIES];
	size_t n = own_libraries(exe, libs, POINT_MAX_BINARIES - ps->npaths), i;
	int ret = 0;

	for (i = 0; i < n && !ret; i++) {
		struct elf_file lf;
		char err[256];

		if (elfsyms_open(libs[i], &lf, err, sizeof(err)))
			continue;
		uint32_t bin = ps->npaths++;

		ps->paths[bin] = libs[i];
		libs[i] = NULL;
		ret = own_points(&lf, bin, spec, seed + bin, false, ps);
		elfsyms_close(&lf);
	}
	for (i = 0; i < n; i++)
		free(libs[i]);
	return ret;
}

int points_select(const char *exe, const struct point_spec *spec, uint64_t seed, struct point_set *ps,
		  char *err, size_t len)
{
	struct elf_file ef;
	int r;

	memset(ps, 0, sizeof(*ps));
	elf_version(EV_CURRENT);
	if (elfsyms_open(exe, &ef, err, len))
		return -1;
	ps->paths[ps->npaths++] = realpath(exe, NULL);
	r = own_points(&ef, 0, spec, seed, ps->paths[0] && system_program(ps->paths[0]), ps);
	if (!r && spec->locks && !ef.dynamic)
		r = for_each_func(ef.elf, take_lock, &(struct lock_ctx){ ps, ef.elf, 0 }) ? 1 : 0;
	if (!r && spec->locks && ef.dynamic)
		r = libc_locks(ps, err, len);
	if (!r && ef.dynamic && (spec->funcs || spec->insns))
		r = own_library_points(exe, spec, seed, ps);
	elfsyms_close(&ef);
	if (r > 0 && ps->n < FUZZ_MAX_POINTS)
		r = -1;	/* out of room before the set was full: memory */
	if (r < 0) {
		snprintf(err, len, "out of memory choosing points in %s", exe);
		return -1;
	}
	return 0;	/* a full set keeps as many as fit */
}

void points_free(struct point_set *ps)
{
	for (size_t i = 0; i < ps->nfuncs; i++)
		free(ps->funcs[i].name);
	for (unsigned i = 0; i < ps->npaths; i++)
		free(ps->paths[i]);
	free(ps->funcs);
	free(ps->p);
	memset(ps, 0, sizeof(*ps));
}
