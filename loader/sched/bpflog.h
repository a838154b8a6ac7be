/* SPDX-License-Identifier: GPL-2.0 */
/* bpflog.c: libbpf's output captured; its tail is shown when loading fails. */
#ifndef FUZZ_BPFLOG_H
#define FUZZ_BPFLOG_H

#include <stdbool.h>
#include <stddef.h>

void bpflog_install(bool verbose);
size_t bpflog_tail(char *buf, size_t len, unsigned nlines);
void bpflog_reset(void);
void bpflog_add(const char *text);
#endif /* FUZZ_BPFLOG_H */
