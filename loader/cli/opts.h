/* SPDX-License-Identifier: GPL-2.0 */
/* opts.c: the command line into struct fuzz_opts. */
#ifndef FUZZ_OPTS_H
#define FUZZ_OPTS_H

#include "fuzz.h"

/* 0, or EXIT_USAGE after printing why; *done set for --help/--version. */
int parse_opts(int argc, char **argv, struct fuzz_opts *o, bool *done, FILE *out);
#endif /* FUZZ_OPTS_H */
