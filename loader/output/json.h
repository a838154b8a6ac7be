/* SPDX-License-Identifier: GPL-2.0 */
/* json.c: --json FILE through json-c, and the helpers trace.c shares. */
#ifndef FUZZ_JSON_H
#define FUZZ_JSON_H

#include <stddef.h>
#include <stdio.h>

#include "result.h"

struct json_object;

/* Write the campaign to `path` (schema in docs/usage.md); 0 or -errno, said on stderr. */
int report_json(const struct campaign_result *res, const char *path, int exit_status);

/* A JSON string of at most `max` bytes of `s`: stray bytes (a name cut mid-character) become U+FFFD. */
struct json_object *json_text(const char *s, size_t max);

/* A double printed with `fmt` (%.3f, %g): the figures the schema promises, not json-c's 17 digits. */
struct json_object *json_number(const char *fmt, double v);

/* `obj` as compact JSON on `f`; 0 or -EIO. */
int json_write(struct json_object *obj, FILE *f);

#endif /* FUZZ_JSON_H */
