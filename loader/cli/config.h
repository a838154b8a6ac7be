/* SPDX-License-Identifier: GPL-2.0 */
/* config.c: serve's INI file into struct serve_config and the usual options. */
#ifndef FUZZ_CONFIG_H
#define FUZZ_CONFIG_H

#include <stddef.h>

#include "fuzz.h"
#include "serve_config.h"

/* 0, or EXIT_USAGE with `err` naming FILE:LINE. */
int config_load(const char *path, struct serve_config *c, char *err, size_t err_len);
/* The fuzzing flags the file asks for, through the command line's parser; 0 or EXIT_USAGE. */
int config_to_opts(const struct serve_config *c, struct fuzz_opts *o, FILE *errs);
void config_free(struct serve_config *c);
#endif /* FUZZ_CONFIG_H */
