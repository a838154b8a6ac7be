/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A point's name for reports and traces: function+offset, the source line
 * when the binary has debug info (libdw), and whether it is a return.
 */
#include <elfutils/libdw.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "pointname.h"

/* "file.c:41" for vaddr in the ELF at path, if its DWARF says; 0 on success. */
static int source_line(const char *path, uint64_t vaddr, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret = -1;
	Dwarf *dw = fd >= 0 ? dwarf_begin(fd, DWARF_C_READ) : NULL;
	Dwarf_Die cu;
	Dwarf_Line *line;
	const char *src;
	int lineno;

	if (dw && dwarf_addrdie(dw, vaddr, &cu) && (line = dwarf_getsrc_die(&cu, vaddr)) &&
	    (src = dwarf_linesrc(line, NULL, NULL)) && !dwarf_lineno(line, &lineno)) {
		char copy[256];

		snprintf(copy, sizeof(copy), "%s", src);
		snprintf(buf, len, "%s:%d", basename(copy), lineno);
		ret = 0;
	}
	if (dw)
		dwarf_end(dw);
	if (fd >= 0)
		close(fd);
	return ret;
}

const char *points_own_note(enum own_source from)
{
	switch (from) {
	case OWN_BY_NAME:
		return " (no debug info: its own functions told by name)";
	case OWN_FROM_MAIN:
		return " (no symbols: its own code is what main reaches, and its calls into a static C library "
		       "stand for lock calls)";
	case OWN_NONE_SYSTEM:
		return " (a stripped program of the distribution's: no points in its own code)";
	default:
		return "";
	}
}

void points_name(const struct point_set *ps, uint32_t idx, char *buf, size_t len)
{
	const struct point *p;
	const struct point_func *f;
	char where[300] = "", lib[128] = "";

	if (idx >= ps->n) {
		snprintf(buf, len, "point %u", idx);
		return;
	}
	p = &ps->p[idx];
	f = p->func < ps->nfuncs ? &ps->funcs[p->func] : NULL;
	if (p->binary > 0 && p->binary < ps->npaths) {
		char copy[256];

		snprintf(copy, sizeof(copy), "%s", ps->paths[p->binary]);
		snprintf(lib, sizeof(lib), "%s:", basename(copy));
	}
	if (p->kind == POINT_LOCK_RET)
		snprintf(where, sizeof(where), " (return)");
	else if (p->binary < ps->npaths && ps->paths[p->binary] &&
		 !source_line(ps->paths[p->binary], p->vaddr, where + 2, sizeof(where) - 3)) {
		where[0] = ' ';
		where[1] = '(';
		strcat(where, ")");
	}
	if (f)
		snprintf(buf, len, "%s%s+0x%llx%s", lib, f->name, (unsigned long long)(p->vaddr - f->vaddr), where);
	else
		snprintf(buf, len, "%s0x%llx%s", lib, (unsigned long long)p->vaddr, where);
}
