/* SPDX-License-Identifier: GPL-2.0 */
/* targets.c: --pid/--cgroup/--comm into the knobs; 0 or EXIT_USAGE with `err`. */
#ifndef FUZZ_TARGETS_H
#define FUZZ_TARGETS_H

#include "fuzz.h"

int cgroup_resolve(const char *path, __u64 *id, __u32 *level, char *err, size_t err_len);
__u32 cgroup_level_of(const char *path);
int targets_resolve(const struct fuzz_opts *o, struct fuzz_knobs *k, char *err, size_t err_len);
#endif /* FUZZ_TARGETS_H */
