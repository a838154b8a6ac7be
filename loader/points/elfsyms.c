/* SPDX-License-Identifier: GPL-2.0 */
/* ELF and DWARF reading for --points: libelf and libdw, nothing of scx_fuzz's own. */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "elfsyms.h"

int elfsyms_open(const char *path, struct elf_file *f, char *err, size_t len)
{
	size_t nph;

	f->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (f->fd < 0) {
		snprintf(err, len, "cannot open %s: %s", path, strerror(errno));
		return -1;
	}
	f->elf = elf_begin(f->fd, ELF_C_READ_MMAP, NULL);
	if (!f->elf || elf_kind(f->elf) != ELF_K_ELF || elf_getphdrnum(f->elf, &nph)) {
		int elf_err = elf_errno();
		const char *why = elf_err ? elf_errmsg(elf_err) : NULL;

		snprintf(err, len, "%s is not an ELF file%s%s", path, why ? ": " : "", why ? why : "");
		if (f->elf)
			elf_end(f->elf);
		close(f->fd);
		return -1;
	}
	f->dynamic = false;
	for (size_t i = 0; i < nph; i++) {
		GElf_Phdr ph;

		if (gelf_getphdr(f->elf, i, &ph) && ph.p_type == PT_INTERP)
			f->dynamic = true;
	}
	return 0;
}

void elfsyms_close(struct elf_file *f)
{
	elf_end(f->elf);
	close(f->fd);
}

/* The section holding vaddr, if it is code. */
Elf_Scn *code_section(Elf *elf, uint64_t vaddr, GElf_Shdr *sh)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(elf, scn))) {
		if (gelf_getshdr(scn, sh) && (sh->sh_flags & SHF_EXECINSTR) && sh->sh_type == SHT_PROGBITS &&
		    vaddr >= sh->sh_addr && vaddr < sh->sh_addr + sh->sh_size)
			return scn;
	}
	return NULL;
}

bool has_symtab(Elf *elf)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(elf, scn)))
		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_SYMTAB)
			return true;
	return false;
}

/*
 * Calls fn for each defined function symbol of the file (.symtab, else .dynsym),
 * with the object file a local one came from (the STT_FILE symbol before it).
 */
int for_each_func(Elf *elf, int (*fn)(void *, const char *, const char *, GElf_Sym *), void *arg)
{
	Elf_Scn *scn = NULL, *dyn = NULL, *tab = NULL;
	const char *file = NULL;
	GElf_Shdr sh;
	int err;

	while ((scn = elf_nextscn(elf, scn))) {
		if (!gelf_getshdr(scn, &sh))
			continue;
		if (sh.sh_type == SHT_SYMTAB)
			tab = scn;
		else if (sh.sh_type == SHT_DYNSYM)
			dyn = scn;
	}
	scn = tab ? tab : dyn;
	if (!scn || !gelf_getshdr(scn, &sh))
		return 0;
	Elf_Data *d = elf_getdata(scn, NULL);

	for (size_t i = 0; d && sh.sh_entsize && i < sh.sh_size / sh.sh_entsize; i++) {
		GElf_Sym sym;
		const char *name;

		if (!gelf_getsym(d, i, &sym) || !(name = elf_strptr(elf, sh.sh_link, sym.st_name)))
			continue;
		if (GELF_ST_TYPE(sym.st_info) == STT_FILE)
			file = name;
		if (GELF_ST_TYPE(sym.st_info) != STT_FUNC || !sym.st_size || sym.st_shndx == SHN_UNDEF || !*name)
			continue;
		if ((err = fn(arg, name, GELF_ST_BIND(sym.st_info) == STB_LOCAL ? file : NULL, &sym)))
			return err;
	}
	return 0;
}

/* Function entries of the program's own code from its DWARF; 0 if it has none. */
size_t dwarf_entries(Elf *elf, uint64_t **out)
{
	Dwarf *dw = dwarf_begin_elf(elf, DWARF_C_READ, NULL);
	Dwarf_Off off = 0, next;
	size_t hsize, n = 0, cap = 0;
	uint64_t *v = NULL;

	if (!dw)
		return 0;
	while (dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu, child;

		if (dwarf_offdie(dw, off + hsize, &cu) && dwarf_child(&cu, &child) == 0) {
			do {
				Dwarf_Addr lo;

				if (dwarf_tag(&child) != DW_TAG_subprogram || dwarf_lowpc(&child, &lo))
					continue;
				if (n == cap) {
					uint64_t *w = realloc(v, (cap = cap ? 2 * cap : 64) * sizeof(*v));

					if (!w)
						break;
					v = w;
				}
				v[n++] = lo;
			} while (dwarf_siblingof(&child, &child) == 0);
		}
		off = next;
	}
	dwarf_end(dw);
	*out = v;
	return n;
}

/* The C library a dynamic program will map (the usual Debian and generic places). */
char *find_libc(void)
{
	static const char *const dirs[] = { "/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu",
					    "/lib64", "/usr/lib64", "/lib", "/usr/lib", NULL };
	char path[256];

	for (int i = 0; dirs[i]; i++) {
		snprintf(path, sizeof(path), "%s/libc.so.6", dirs[i]);
		if (!access(path, R_OK))
			return realpath(path, NULL);
	}
	return NULL;
}

