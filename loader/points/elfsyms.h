/* SPDX-License-Identifier: GPL-2.0 */
/* What --points reads from ELF files: code sections, function symbols, DWARF entries (elfsyms.c). */
#ifndef FUZZ_ELFSYMS_H
#define FUZZ_ELFSYMS_H

#include <gelf.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* An ELF file and the sections its functions live in. */
struct elf_file {
	int fd;
	Elf *elf;
	bool dynamic;		/* it has an interpreter: a dynamically linked program */
};

int elfsyms_open(const char *path, struct elf_file *f, char *err, size_t len);
void elfsyms_close(struct elf_file *f);
/* The section holding vaddr, if it is code. */
Elf_Scn *code_section(Elf *elf, uint64_t vaddr, GElf_Shdr *sh);
/*
 * Calls fn(arg, name, file, sym) for each defined function symbol of the file (.symtab, else
 * .dynsym); file: the object a local symbol came from (its STT_FILE), else NULL. Stops at fn's error.
 */
int for_each_func(Elf *elf, int (*fn)(void *, const char *, const char *, GElf_Sym *), void *arg);
/* Whether the file has a symbol table (.symtab): not stripped. */
bool has_symtab(Elf *elf);
/* Function entries of the program's own code from its DWARF (*out, to free); 0 if it has none. */
size_t dwarf_entries(Elf *elf, uint64_t **out);
/* The C library a dynamic program will map (the usual Debian and generic places), to free. */
char *find_libc(void);

#endif /* FUZZ_ELFSYMS_H */
