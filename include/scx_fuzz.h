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
	FUZZ_EXIT_DUMP_LEN = 131072,	/* the kernel's state dump on an error exit (32 KB held 12 CPUs of a busy 16) */
	FUZZ_MAX_CPUS = 4096,		/* highest OS CPU id + 1 */
	FUZZ_MAX_LLCS = 512,
	FUZZ_MAX_NODES = 64,
	FUZZ_MAX_STEAL = 16,		/* LLCs an LLC's CPUs may steal from, nearest first */
	FUZZ_MAX_FAR_NODES = 16,	/* nodes at the largest distance, for forced migrations */
	FUZZ_NO_LLC = 0xffff,		/* cpu_llc[] of an absent CPU */
	FUZZ_MAX_DEPTH = 8,		/* --mode pct --depth D: at most D - 1 = 7 change points */
	FUZZ_MAX_POINTS = 16384,	/* --points: uprobes placed in the target */
	FUZZ_POINT_LOG = 16,		/* --points: the last points acted on, for the report */
};

/* DSQ ids the scheduler creates (user DSQ ids must be below 2^63). */
enum fuzz_dsq_ids {
	FUZZ_DSQ_GLOBAL = 0,		/* --global-queue baseline only */
	FUZZ_DSQ_LLC_BASE = 0x1000,	/* + LLC index: one vtime-ordered queue per LLC */
	FUZZ_DSQ_DELAY_BASE = 0x2000,	/* + LLC index: held target tasks, ordered by release time */
	FUZZ_DSQ_SERIAL = 0x3000,	/* --serialize: runnable targets waiting for their one CPU */
	FUZZ_DSQ_IMAGE = 0x4000,	/* --points: new processes waiting for their points */
};

static inline __u64 llc_dsq_id(__u32 llc)
{
	return FUZZ_DSQ_LLC_BASE + llc;
}

static inline __u64 delay_dsq_id(__u32 llc)
{
	return FUZZ_DSQ_DELAY_BASE + llc;
}

enum fuzz_defaults {
	FUZZ_DEFAULT_SLICE_US = 5000,
	FUZZ_DEFAULT_BATCH = 4,		/* tasks moved per steal */
	FUZZ_MAX_BATCH = 32,
	FUZZ_WATCHDOG_MS = 10000,	/* sched_ext ejects us if a runnable task waits this long */
	FUZZ_MAX_LEAD = 8,		/* slices a task's vtime may lead its LLC's clock */
};

/* Caps that keep every perturbation far below the watchdog (FUZZ_WATCHDOG_MS). */
#define FUZZ_MAX_DELAY_NS	(1000ULL * 1000 * 1000)	/* one held wake-up: 1 s */
#define FUZZ_MAX_SLICE_NS	(1000ULL * 1000 * 1000)
#define FUZZ_MIN_SLICE_NS	(20ULL * 1000)
#define FUZZ_BUDGET_WINDOW_NS	(1000ULL * 1000 * 1000)	/* the delay budget's window of run time */
#define FUZZ_MAX_SLEEP_NS	(2000ULL * 1000 * 1000)	/* --mode windows: one sleep window */
#define FUZZ_MIN_PREEMPT_NS	(10ULL * 1000)		/* --preempt: shortest timer */
#define FUZZ_MIN_BURST_TIMER_NS	(1ULL * 1000)		/* --preempt auto: shortest timer */
#define FUZZ_FIRST_BURST_NS	(100ULL * 1000)		/* --preempt auto: a new thread's burst, until seen */
#define FUZZ_HOLD_ALLOWANCE_NS	(1000ULL * 1000 * 1000)	/* --hold-share: what a process may be held at once */
#define FUZZ_MAX_HOLD_PROCS	8192			/* --hold-share: target processes tracked */
#define FUZZ_THREAD_HOLD_NS	(100ULL * 1000 * 1000)	/* --hold-share: each thread's own allowance */
#define FUZZ_MAX_PREEMPT_NS	(100ULL * 1000 * 1000)	/* --preempt: longest timer */
#define FUZZ_SERIAL_SPREAD_NS	(10ULL * 1000 * 1000)	/* --serialize: random order within 10 ms */
#define FUZZ_SERIAL_LEASE_NS	(250ULL * 1000 * 1000)	/* a claimed turn unused this long is void */
#define FUZZ_SERIAL_MAX_WAIT_NS	(100ULL * 1000 * 1000)	/* a target starved this long runs next */
#define FUZZ_PCT_DEFAULT_STEPS	1000			/* pct: expected steps of a run, until learned */
#define FUZZ_POINT_PPM_MIN	5000			/* --points: a run's chance to act, at least ... */
#define FUZZ_POINT_PPM_MAX	500000			/* ... and at most (0.5 % .. 50 %, log-uniform) */
#define FUZZ_PCT_DROP_MIN_NS	(10ULL * 1000)		/* pct: a change point falls this far ... */
#define FUZZ_PCT_DROP_MAX_NS	(5000ULL * 1000)	/* ... to at most this far into its run */
#define FUZZ_STRANDED_MIN_NS	(250ULL * 1000 * 1000)	/* an LLC queue unserved this long is pulled */
#define FUZZ_MAX_ROOTS		64			/* --pid / CMD process trees */
#define FUZZ_COMM_LEN		16
#define FUZZ_MAX_EXCLUDES	32			/* --exclude-comm patterns, --java's included */

/* How targets are fuzzed (fuzz_knobs.mode). */
enum fuzz_mode {
	FUZZ_MODE_PERTURB,	/* per wake-up: held wake-ups, jitter, random slices, moves */
	FUZZ_MODE_WINDOWS,	/* the original tool's: run windows, then sleep windows held off CPU */
	FUZZ_MODE_PCT,		/* serialized, by random priorities with D - 1 change points */
};

/* What makes a task a target (fuzz_knobs.target_by, bit flags). */
enum fuzz_target_by {
	FUZZ_TARGET_TREE = 1,		/* a registered process, its threads and descendants */
	FUZZ_TARGET_COMM = 2,		/* thread name equals comm (or starts with it, if prefix) */
	FUZZ_TARGET_CGROUP = 4,		/* in the cgroup v2 subtree cgroup_id */
};

/*
 * How hard to fuzz the targets, set by the loader from --intensity and the
 * flags that override it. Probabilities in parts per million, times in ns.
 */
struct fuzz_knobs {
	__u32 target_by;		/* enum fuzz_target_by; 0: nothing is fuzzed */
	__u32 delay_ppm;		/* chance a target wake-up is held back */
	__u32 delay_dist;		/* enum fuzz_dist */
	__u32 migrate_ppm;		/* chance of a forced move to another LLC (or CPU) */
	__u32 far_ppm;			/* chance of a forced move to the farthest node */
	__u32 budget_ppm;		/* injected delay per run time; 0: unlimited */
	__u64 delay_min_ns, delay_max_ns;
	__u64 jitter_ns;		/* up to this much vtime jitter: shuffles run order */
	__u64 slice_min_ns, slice_max_ns;	/* target slices; 0: the base slice */
	__u64 cgroup_id;		/* kernfs id of the --cgroup directory */
	__u32 cgroup_level;		/* its depth below the cgroup2 root */
	__u32 comm_prefix;		/* comm ended in '*': match a prefix */
	char comm[FUZZ_COMM_LEN];
	__u32 mode;			/* enum fuzz_mode */
	__u32 scale_slice;		/* windows: target slice / (1 + tasks queued in its LLC) */
	__u64 run_min_ns, run_max_ns;	/* windows: running window lengths */
	__u64 sleep_min_ns, sleep_max_ns;	/* windows: sleeping window lengths */
	/* threads never fuzzed, whatever else says so: --exclude-comm, --java */
	__u32 nr_excludes;
	__u32 exclude_prefix;		/* bit i: pattern i ended in '*' */
	char exclude[FUZZ_MAX_EXCLUDES][FUZZ_COMM_LEN];
	__u64 preempt_min_ns, preempt_max_ns;	/* --preempt: a running target is preempted
						 * after this long (log-uniform); 0: never */
	__u32 serialize;		/* --serialize: one target thread runs at a time */
	__u32 pct_depth;		/* --mode pct: the bug depth D aimed at */
	__u32 event_ppm;		/* chance a target that wakes or creates another target is
					 * preempted right there and held back */
	__u32 burst_timer_ppm;		/* --preempt auto: chance a target's run gets a timer drawn
					 * inside its usual run burst (preempted and held when it fires) */
	__u32 hold_share_ppm;		/* held time of a process's threads per its wall time, beyond
					 * a 1 s allowance; 0: unlimited */
	__u32 start_ppm;		/* at a thread's creation: chance its creator is preempted and
					 * held right there, and (drawn apart) that its start is held */
	__u32 scale_ppm;		/* share of holds drawn within the run's own decade of
					 * [delay_min_ns, delay_max_ns] (fuzz_hold_ns) */
	__u32 point_ppm;		/* --point-prob: chance a target thread reaching a point is
					 * preempted (and held) right there; 0: drawn per run */
	__u64 image_wait_ns;		/* --points: a target process that execs (or a process with
					 * points that forks) waits at most this long for its points;
					 * 0: only the command's first process gets points */
};

/* --points: a target process needs its points (image_rb, read by the loader). */
enum fuzz_image_kind {
	FUZZ_IMAGE_EXEC = 1,	/* it ran execve: a new program */
	FUZZ_IMAGE_FORK = 2,	/* a process with points forked it: same program, no probes yet */
};

struct fuzz_image_event {
	__u64 ts_ns;		/* CLOCK_MONOTONIC, when it began to wait */
	__u32 tgid;
	__u32 kind;		/* enum fuzz_image_kind */
	__u32 parent;		/* FUZZ_IMAGE_FORK: the forking process */
	__u32 _pad;
};

#define FUZZ_IMAGE_RB_BYTES (256u << 10)
#define FUZZ_MAX_IMAGE_PROCS	4096			/* processes waiting for, or with, points */
#define FUZZ_IMAGE_WAIT_NS	(2000ULL * 1000 * 1000)	/* a new process waits at most 2 s */
#define FUZZ_IMAGE_POLL_NS	(1000ULL * 1000)	/* while some wait: answers looked for every 1 ms */
#define FUZZ_IMAGE_KICK_NS	(20ULL * 1000)		/* an exec'd thread is taken off its CPU this soon */

/* Per-CPU counters; the loader sums each index over all possible CPUs. */
enum fuzz_stat {
	FUZZ_STAT_ENQUEUE,		/* ops.enqueue calls */
	FUZZ_STAT_DIRECT,		/* task sent straight to an idle CPU's local queue */
	FUZZ_STAT_LLC,			/* dispatch took a task from its own LLC's queue */
	FUZZ_STAT_STEAL_NODE,		/* dispatch stole from another LLC of the same node */
	FUZZ_STAT_STEAL_REMOTE,		/* dispatch stole from an LLC of another node */
	FUZZ_STAT_STOLEN,		/* tasks moved by those steals (batches) */
	FUZZ_STAT_KICK,			/* idle CPUs woken because work arrived */
	FUZZ_STAT_EMPTY,		/* dispatch found nothing close enough: CPU may idle */
	FUZZ_STAT_GLOBAL,		/* --global-queue: dispatch from the shared queue */
	FUZZ_STAT_HOTPLUG,		/* CPUs that went online or offline */
	FUZZ_STAT_RESCUED,		/* tasks pulled from an LLC queue its own CPUs stopped serving */
	FUZZ_STAT_TARGET_ENQ,		/* target tasks queued (each a fuzzing event) */
	FUZZ_STAT_DELAYED,		/* target wake-ups held back */
	FUZZ_STAT_DELAY_NS,		/* total delay injected (as drawn) */
	FUZZ_STAT_RELEASED,		/* held tasks released */
	FUZZ_STAT_LATE_NS,		/* total time released tasks waited beyond their release time */
	FUZZ_STAT_THROTTLED,		/* delays skipped: the task's budget was spent */
	FUZZ_STAT_MIGRATE_LLC,		/* forced moves to another LLC (or CPU, with one LLC) */
	FUZZ_STAT_MIGRATE_NODE,		/* forced moves to the farthest node */
	FUZZ_STAT_TARGET_RUN_NS,	/* CPU time the targets used */
	FUZZ_STAT_TARGET_RUNS,		/* times a target got a CPU */
	FUZZ_STAT_TARGET_NODE_MOVES,	/* ... on another node than its last run */
	FUZZ_STAT_OTHER_RUNS,		/* times a non-target got a CPU */
	FUZZ_STAT_OTHER_NODE_MOVES,	/* ... on another node than its last run */
	FUZZ_STAT_TRACE_LOST,		/* trace events dropped: the ring buffer was full */
	FUZZ_STAT_PREEMPTED,		/* --preempt: running targets preempted by their timer */
	FUZZ_STAT_HANDOVERS,		/* --serialize: the one target CPU passed to a waiting thread */
	FUZZ_STAT_UNSERIALIZED,		/* --serialize: a target ran while another held the turn (a bug) */
	FUZZ_STAT_UNASKED_RUNS,		/* --serialize: ... put back by the kernel without ops.enqueue */
	FUZZ_STAT_PCT_CHANGES,		/* --mode pct: change points reached (a thread's priority dropped) */
	FUZZ_STAT_TIMER_FAILS,		/* --preempt: a preemption timer the kernel refused to start */
	FUZZ_STAT_PCT_STEPS,		/* --mode pct: steps (a target thread took over from another) */
	FUZZ_STAT_PREEMPT_WAKE,		/* targets preempted right after waking another target */
	FUZZ_STAT_PREEMPT_CREATE,	/* targets preempted right after creating a thread or process */
	FUZZ_STAT_BURST_TIMERS,		/* --preempt auto: timers armed inside a run burst */
	FUZZ_STAT_POINT_HITS,		/* --points: a target thread reached a point */
	FUZZ_STAT_POINT_ACTS,		/* --points: ... and was preempted there (pct: a change point) */
	FUZZ_STAT_TURN_KICKS,		/* --serialize: a CPU slow to run the turn it claimed, kicked */
	FUZZ_STAT_BACKED_OFF,		/* serve: target events left unfuzzed by the back-off */
	FUZZ_STAT_IMAGE_WAITS,		/* --points: a target process exec'd or forked, and waited for
					 * its points */
	FUZZ_STAT_IMAGE_TIMEOUTS,	/* ... and ran on without them: the loader did not answer in time */
	FUZZ_STAT_IMAGE_WAIT_NS,	/* ... the time those processes waited, in all */
	FUZZ_NR_STATS,
};

/* Test-only faults (hidden --test-fault option) that prove error paths work. */
enum fuzz_test_fault {
	FUZZ_FAULT_NONE,
	FUZZ_FAULT_BPF_ERROR,	/* scx_bpf_error() from ops.tick: kernel ejects us */
	FUZZ_FAULT_VERIFIER,		/* load a program the verifier must reject */
	FUZZ_FAULT_STRAND,		/* the last LLC's CPUs serve only tasks pinned there */
};

/*
 * The dispatch-queue plan, computed from the topology by topo/plan.c and
 * handed to BPF as read-only data before load. LLC and node numbers are dense
 * indices (0..nr-1); CPU numbers are the kernel's ids. Lists are flattened:
 * the CPUs of LLC l are llc_cpus[llc_cpu_start[l] .. llc_cpu_start[l + 1]).
 * The *_start arrays are twice the needed size so that BPF can mask the index
 * l + 1 with a power of two, which is how the verifier accepts it.
 */
struct fuzz_plan {
	__u32 nr_cpus, nr_llcs, nr_nodes, nr_cpu_ids;
	__u16 cpu_llc[FUZZ_MAX_CPUS];
	__u16 llc_node[FUZZ_MAX_LLCS];
	__u16 node_os_id[FUZZ_MAX_NODES];
	__u16 llc_cpu_start[2 * FUZZ_MAX_LLCS];
	__u16 llc_cpus[FUZZ_MAX_CPUS];
	__u16 node_cpu_start[2 * FUZZ_MAX_NODES];
	__u16 node_cpus[FUZZ_MAX_CPUS];
	__u16 node_llc_start[2 * FUZZ_MAX_NODES];
	__u16 node_llcs[FUZZ_MAX_LLCS];
	__u8 llc_nr_steal[FUZZ_MAX_LLCS];
	__u16 llc_steal[FUZZ_MAX_LLCS][FUZZ_MAX_STEAL];
	__u8 node_nr_far[FUZZ_MAX_NODES];
	__u8 node_far[FUZZ_MAX_NODES][FUZZ_MAX_FAR_NODES];
	__u8 distance[FUZZ_MAX_NODES][FUZZ_MAX_NODES];
};

/* --trace: what the scheduler did to a target thread, through a BPF ring buffer. */
enum fuzz_trace_kind {
	FUZZ_EV_RUN,		/* got a CPU; value: its slice (ns) */
	FUZZ_EV_STOP,		/* left the CPU; value: ns it ran */
	FUZZ_EV_DELAY,		/* wake-up held back; value: delay (ns) */
	FUZZ_EV_RELEASE,	/* held task released; value: ns past its release time */
	FUZZ_EV_MIGRATE_LLC,	/* forced onto another LLC / CPU; value: that CPU */
	FUZZ_EV_MIGRATE_NODE,	/* forced onto the farthest node; value: that CPU */
	FUZZ_EV_PREEMPT,	/* --preempt: preempted by its timer; value: ns it had run */
	FUZZ_EV_HANDOVER,	/* --serialize: given the targets' turn; value: ns it waited */
	FUZZ_EV_PCT_CHANGE,	/* --mode pct: its priority dropped; value: the new priority */
	FUZZ_EV_PREEMPT_WAKE,	/* preempted right after waking a target; value: that thread's tid */
	FUZZ_EV_PREEMPT_CREATE,	/* preempted right after creating a thread; value: its tid */
	FUZZ_EV_POINT,		/* --points: preempted at a point; value: the point's index */
	FUZZ_EV_UNSERIALIZED,	/* --serialize: ran while another held the turn; value: its tid,
				 * | FUZZ_EV_HOLDER_RUNNING if it was running, | FUZZ_EV_UNASKED if
				 * the kernel ran this thread without asking (in a migration-disabled
				 * section) */
	FUZZ_EV_DIED,		/* a target process's main thread ended badly; value: its exit
				 * code (signal in bits 0-6, exit status in bits 8-15) */
	FUZZ_NR_EV,
};

/* Flags in a FUZZ_EV_UNSERIALIZED value, above the holder's tid. */
#define FUZZ_EV_HOLDER_RUNNING	(1ULL << 32)
#define FUZZ_EV_UNASKED		(1ULL << 33)

struct fuzz_trace_event {
	__u64 ts_ns;		/* CLOCK_MONOTONIC */
	__u64 value;
	__u32 tid, tgid;
	__u16 cpu, kind;	/* the CPU it happened on; enum fuzz_trace_kind */
	char comm[16];
	__u32 _pad;
};

#define FUZZ_TRACE_RB_BYTES (16u << 20)	/* ring buffer size when tracing */

/* --points: one point acted on (point_log, read by the loader for the failure report). */
struct fuzz_point_act {
	__u64 ts_ns;
	__u32 tid;
	__u32 point;		/* index into the loader's point list */
};

/* Filled by ops.exit: why the kernel detached the scheduler. */
struct fuzz_exit_record {
	__s32 kind;		/* enum scx_exit_kind; 0 while still attached */
	__s32 _pad;
	__s64 exit_code;
	char reason[FUZZ_EXIT_REASON_LEN];
	char msg[FUZZ_EXIT_MSG_LEN];
	char dump[FUZZ_EXIT_DUMP_LEN];
};

#endif /* SCX_FUZZ_H */
