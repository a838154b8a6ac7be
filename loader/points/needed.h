/* SPDX-License-Identifier: GPL-2.0 */
/* The shared libraries of a program that are its own, not the system's (needed.c). */
#ifndef FUZZ_NEEDED_H
#define FUZZ_NEEDED_H

#include <stddef.h>

/*
 * The libraries `exe` needs (DT_NEEDED, and theirs in turn) that resolve outside the
 * system's library directories: through an RPATH or RUNPATH ($ORIGIN expanded),
 * LD_LIBRARY_PATH, or /usr/local/lib. At most max real paths go to out (each to free);
 * returns how many.
 */
size_t own_libraries(const char *exe, char **out, size_t max);
/* Whether path is under a directory the distribution's libraries live in. */
int system_library(const char *path);
/* Whether path (a real path) is where the distribution's programs, shells and tools live, or its libraries. */
int system_program(const char *path);

#endif /* FUZZ_NEEDED_H */
