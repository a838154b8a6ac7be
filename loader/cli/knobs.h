/* SPDX-License-Identifier: GPL-2.0 */
/* knobs.c: presets, fuzzing-flag parsers, and the resolved, checked knobs. */
#ifndef FUZZ_KNOBS_H
#define FUZZ_KNOBS_H

#include "fuzz.h"

int intensity_preset(const char *name, struct fuzz_knobs *k);
void windows_preset(struct fuzz_knobs *k);
int parse_duration_ns(const char *s, __u64 *ns);
int parse_range_ns(const char *s, __u64 *lo, __u64 *hi);
int parse_percent_ppm(const char *s, __u32 *ppm);
int parse_dist(const char *s, __u32 *dist);
int knobs_resolve(const struct fuzz_opts *o, struct fuzz_knobs *k, char *err, size_t err_len);
#endif /* FUZZ_KNOBS_H */
