/* SPDX-License-Identifier: GPL-2.0 */
/* pointname.c: a point's name for reports and traces. */
#ifndef FUZZ_POINTNAME_H
#define FUZZ_POINTNAME_H

#include <stddef.h>
#include <stdint.h>

#include "point_set.h"

/* "funcA+0x23 (twostage.c:41)", or "libc.so.6:pthread_mutex_lock+0x0 (return)". */
void points_name(const struct point_set *ps, uint32_t idx, char *buf, size_t len);

/* How an executable's own functions were told, for its points line: "" with debug info. */
const char *points_own_note(enum own_source from);

#endif /* FUZZ_POINTNAME_H */
