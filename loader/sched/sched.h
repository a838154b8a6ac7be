/* SPDX-License-Identifier: GPL-2.0 */
/* The BPF scheduler's lifecycle as seen from the loader. */
#ifndef FUZZ_SCHED_H
#define FUZZ_SCHED_H

#include <stdbool.h>
#include <stdint.h>

#include "fuzz.h"
#include "scx_fuzz.h"

struct scx_fuzz;
struct bpf_link;
struct ring_buffer;
struct trace;

struct sched {
	struct scx_fuzz *skel;
	struct bpf_link *link;
	struct ring_buffer *rb;		/* --trace */
	struct bpf_link *points_link;	/* --points: the handler of point traps ... */
	struct bpf_link *returns_link;	/* ... and of return probes */
	struct bpf_link *exec_link;	/* --points: target processes that exec ... */
	struct bpf_link *fork_link;	/* ... or fork, told to the loader (execwait.c) */
	struct ring_buffer *images_rb;
};

int sched_open_load(struct sched *s, const struct fuzz_opts *o, const struct fuzz_plan *plan,
		    const struct fuzz_knobs *knobs);
int sched_add_target(struct sched *s, pid_t pid);
void sched_remove_target(struct sched *s, pid_t pid);
void sched_set_seed(struct sched *s, __u64 seed);
void sched_set_pct(struct sched *s, __u64 seed, unsigned depth, __u64 steps);
void sched_set_cgroup(struct sched *s, __u64 id);
void sched_set_unfuzzed(struct sched *s, unsigned pct);
__u64 sched_target_deaths(const struct sched *s);
int sched_trace_start(struct sched *s, struct trace *t);
void sched_trace_stop(struct sched *s);
void sched_trace_drain(struct sched *s);
int sched_trace_fd(const struct sched *s);
int sched_attach(struct sched *s);
int sched_points_start(struct sched *s);
size_t sched_point_log(const struct sched *s, struct fuzz_point_act *acts, size_t max);
void sched_point_log_reset(struct sched *s, __u32 point_ppm);
bool sched_exited(const struct sched *s);
bool sched_exit_is_error(const struct sched *s);
void sched_print_exit(const struct sched *s);
int sched_read_stats(const struct sched *s, uint64_t sums[FUZZ_NR_STATS]);
void sched_print_stats(const struct sched *s, FILE *out);
void sched_detach(struct sched *s);
void sched_destroy(struct sched *s);

#endif /* FUZZ_SCHED_H */
