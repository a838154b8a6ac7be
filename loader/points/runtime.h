/* SPDX-License-Identifier: GPL-2.0 */
/* Whether a function symbol is the C/C++ runtime's or the program's own (runtime.c). */
#ifndef FUZZ_RUNTIME_H
#define FUZZ_RUNTIME_H

#include <stdbool.h>

/*
 * name: the symbol; file: the object a local symbol came from (its STT_FILE), or NULL;
 * static_link: the binary has the C library linked in, so its names count too.
 */
bool runtime_func(const char *name, const char *file, bool static_link);

#endif /* FUZZ_RUNTIME_H */
