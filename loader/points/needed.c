/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A program's own shared libraries. Races live in a project's libraries as
 * often as in its executable, but a distribution's (libstdc++, libssl, the
 * C library beyond its lock calls) would swamp the point budget with code
 * nobody is testing. So a library counts as the program's own when the
 * dynamic loader would find it before the system's directories: by the
 * RPATH or RUNPATH of the object that needs it, by LD_LIBRARY_PATH (as the
 * loader sees it), or in /usr/local/lib. Resolved in ld.so's order; a name
 * it finds only in the system's directories is left out. Plain libelf.
 */
#include <gelf.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "elfsyms.h"
#include "needed.h"

enum { MAX_NEEDED = 64 };

struct dyn_info {
	char *needed[MAX_NEEDED];
	size_t n;
	char *rpath, *runpath;
};

int system_library(const char *path)
{
	static const char *const sys[] = { "/lib/", "/lib32/", "/lib64/", "/libx32/", "/usr/lib/",
					   "/usr/lib32/", "/usr/lib64/", "/usr/libx32/", NULL };

	for (int i = 0; sys[i]; i++)
		if (!strncmp(path, sys[i], strlen(sys[i])))
			return 1;
	return 0;
}

int system_program(const char *path)
{
	static const char *const sys[] = { "/bin/", "/sbin/", "/usr/bin/", "/usr/sbin/", "/usr/libexec/",
					   "/usr/games/", NULL };

	for (int i = 0; sys[i]; i++)
		if (!strncmp(path, sys[i], strlen(sys[i])))
			return 1;
	return system_library(path);
}

/* DT_NEEDED, DT_RPATH and DT_RUNPATH of the file at path (strings copied). */
static int read_dynamic(const char *path, struct dyn_info *di)
{
	struct elf_file ef;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	char err[256];

	memset(di, 0, sizeof(*di));
	if (elfsyms_open(path, &ef, err, sizeof(err)))
		return -1;
	while ((scn = elf_nextscn(ef.elf, scn))) {
		Elf_Data *d;
		GElf_Dyn dyn;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_DYNAMIC || !(d = elf_getdata(scn, NULL)))
			continue;
		for (size_t i = 0; sh.sh_entsize && i < sh.sh_size / sh.sh_entsize && gelf_getdyn(d, i, &dyn); i++) {
			const char *s = dyn.d_tag == DT_NEEDED || dyn.d_tag == DT_RPATH || dyn.d_tag == DT_RUNPATH ?
					elf_strptr(ef.elf, sh.sh_link, dyn.d_un.d_val) : NULL;

			if (!s)
				continue;
			if (dyn.d_tag == DT_NEEDED && di->n < MAX_NEEDED)
				di->needed[di->n++] = strdup(s);
			else if (dyn.d_tag == DT_RPATH && !di->rpath)
				di->rpath = strdup(s);
			else if (dyn.d_tag == DT_RUNPATH && !di->runpath)
				di->runpath = strdup(s);
		}
	}
	elfsyms_close(&ef);
	return 0;
}

static void free_dynamic(struct dyn_info *di)
{
	for (size_t i = 0; i < di->n; i++)
		free(di->needed[i]);
	free(di->rpath);
	free(di->runpath);
}

/* name in the ':'-separated dirs ($ORIGIN: origin), as a real path, or NULL. */
static char *find_in(const char *dirs, const char *origin, const char *name)
{
	char list[PATH_MAX], cand[PATH_MAX + 256];
	char *save, *dir;

	if (!dirs || strlen(dirs) >= sizeof(list))
		return NULL;
	strcpy(list, dirs);
	for (dir = strtok_r(list, ":", &save); dir; dir = strtok_r(NULL, ":", &save)) {
		const char *rest = NULL;

		if (!strncmp(dir, "$ORIGIN", 7))
			rest = dir + 7;
		else if (!strncmp(dir, "${ORIGIN}", 9))
			rest = dir + 9;
		if (rest)
			snprintf(cand, sizeof(cand), "%s%s/%s", origin, rest, name);
		else
			snprintf(cand, sizeof(cand), "%s/%s", *dir ? dir : ".", name);
		if (!access(cand, R_OK))
			return realpath(cand, NULL);
	}
	return NULL;
}

/* Where ld.so would find `name` for the object at `from`, if before the system's directories. */
static char *resolve_own(const struct dyn_info *di, const char *from, const char *name)
{
	char copy[PATH_MAX], *origin, *found = NULL;

	if (strchr(name, '/'))
		return NULL;	/* a path in DT_NEEDED: rare, and relative to the working directory */
	snprintf(copy, sizeof(copy), "%s", from);
	origin = dirname(copy);
	if (!di->runpath)
		found = find_in(di->rpath, origin, name);
	if (!found)
		found = find_in(getenv("LD_LIBRARY_PATH"), origin, name);
	if (!found)
		found = find_in(di->runpath, origin, name);
	if (!found)
		found = find_in("/usr/local/lib", origin, name);
	if (found && system_library(found)) {
		free(found);
		found = NULL;
	}
	return found;
}

static int known(char **v, size_t n, const char *path)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i], path))
			return 1;
	return 0;
}

size_t own_libraries(const char *exe, char **out, size_t max)
{
	char *self = realpath(exe, NULL);
	size_t n = 0;

	if (!self)
		return 0;
	elf_version(EV_CURRENT);
	/* breadth first: exe's libraries, then each of theirs; out doubles as the queue */
	for (size_t next = 0; n < max; next++) {
		const char *obj = next ? out[next - 1] : self;
		struct dyn_info di;

		if (next > n || read_dynamic(obj, &di))
			break;
		for (size_t i = 0; i < di.n && n < max; i++) {
			char *lib = resolve_own(&di, obj, di.needed[i]);

			if (lib && !known(out, n, lib) && strcmp(lib, self))
				out[n++] = lib;
			else
				free(lib);
		}
		free_dynamic(&di);
	}
	free(self);
	return n;
}
