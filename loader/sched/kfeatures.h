/* SPDX-License-Identifier: GPL-2.0 */
/* kfeatures.c: which sched_ext kfuncs and fields a kernel's BTF has (printed under -v). */
#ifndef FUZZ_KFEATURES_H
#define FUZZ_KFEATURES_H

#include <stdbool.h>
#include <stdio.h>

enum kernel_feature {
	KF_DSQ_INSERT_V2,	/* scx_bpf_dsq_insert___v2 (7.x) */
	KF_DSQ_INSERT,		/* scx_bpf_dsq_insert (6.13+) */
	KF_DISPATCH,		/* scx_bpf_dispatch (6.12's name) */
	KF_DSQ_MOVE_TO_LOCAL_V2,
	KF_DSQ_MOVE_TO_LOCAL,
	KF_CONSUME,
	KF_DSQ_MOVE,
	KF_DISPATCH_FROM_DSQ,
	KF_MIGRATION_DISABLED,	/* task_struct.migration_disabled */
	KF_EXIT_DUMP,		/* scx_exit_info.dump */
	NR_KERNEL_FEATURES,
};

const char *kernel_feature_name(enum kernel_feature f);
/* Fill have[] from the BTF at btf_path (NULL: the running kernel's). 0 or -errno. */
int probe_kernel_features(const char *btf_path, bool have[NR_KERNEL_FEATURES]);
/* "kernel features: NAME=yes|no ..." on one line. */
void print_kernel_features(FILE *out, const bool have[NR_KERNEL_FEATURES]);
/* Probe the running kernel and print, or say why it cannot. */
void report_kernel_features(FILE *out);
#endif /* FUZZ_KFEATURES_H */
