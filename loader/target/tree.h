/* SPDX-License-Identifier: GPL-2.0 */
/* tree.c: the target's process tree; we are its subreaper. */
#ifndef FUZZ_TREE_H
#define FUZZ_TREE_H

#include <sys/types.h>

#include "errcheck.h"

int tree_init(void);
void tree_kill(void);
int tree_reap(pid_t main, int *status, struct errcheck *e);
#endif /* FUZZ_TREE_H */
