/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the BPF scheduler and its loader share: limits, stat indices and the
 * exit record. Plain C with fixed-width types so it compiles for both sides.
 */
#ifndef SCX_FUZZ_H
#define SCX_FUZZ_H

#ifdef __bpf__
#include "vmlinux.h"
#else
#include <linux/types.h>
#endif

#define SCX_FUZZ_NAME "scx_fuzz"

enum fuzz_limits {
	FUZZ_EXIT_REASON_LEN = 128,
	FUZZ_EXIT_MSG_LEN = 1024,
};

/* DSQ ids the scheduler creates (user DSQ ids must be below 2^63). */
enum fuzz_dsq_ids {
	FUZZ_DSQ_SHARED = 0,
};

/* Per-CPU counters; the loader sums each index over all possible CPUs. */
enum fuzz_stat {
	FUZZ_STAT_ENQUEUE,		/* ops.enqueue calls */
	FUZZ_STAT_DIRECT_IDLE,	/* woken task sent straight to an idle CPU */
	FUZZ_STAT_DISPATCH,		/* ops.dispatch moved a task to a local DSQ */
	FUZZ_STAT_DISPATCH_EMPTY,	/* ops.dispatch found nothing */
	FUZZ_NR_STATS,
};

/* Test-only faults (hidden --test-fault option) that prove error paths work. */
enum fuzz_test_fault {
	FUZZ_FAULT_NONE,
	FUZZ_FAULT_BPF_ERROR,	/* scx_bpf_error() from ops.tick: kernel ejects us */
	FUZZ_FAULT_VERIFIER,		/* load a program the verifier must reject */
};

/* Filled by ops.exit: why the kernel detached the scheduler. */
struct fuzz_exit_record {
	__s32 kind;		/* enum scx_exit_kind; 0 while still attached */
	__s32 _pad;
	__s64 exit_code;
	char reason[FUZZ_EXIT_REASON_LEN];
	char msg[FUZZ_EXIT_MSG_LEN];
};

#endif /* SCX_FUZZ_H */
