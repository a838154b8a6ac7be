/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Open, configure, load, attach and detach the BPF scheduler. Every libbpf
 * failure is reported with what we were doing; the verifier's log tail is
 * shown when the kernel refuses the program.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "fuzz_rand.h"
#include "sched.h"
#include "trace.h"
#include "scx_fuzz.skel.h"
#include "bpflog.h"
#include "preflight.h"
#include "stats.h"

enum { SCX_EXIT_ERROR_KIND = 1024 };	/* kinds >= this are errors (enum scx_exit_kind) */

static void print_log_tail(unsigned nlines)
{
	char tail[8192], *line, *save;

	if (!bpflog_tail(tail, sizeof(tail), nlines))
		return;
	for (line = strtok_r(tail, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		fprintf(stderr, "scx_fuzz:   | %s\n", line);
}

int sched_open_load(struct sched *s, const struct fuzz_opts *o, const struct fuzz_plan *plan,
		    const struct fuzz_knobs *knobs)
{
	int err;

	memset(s, 0, sizeof(*s));
	bpflog_reset();
	s->skel = scx_fuzz__open();
	if (!s->skel) {
		fprintf(stderr, "scx_fuzz: cannot open the BPF object: %s\n", strerror(errno));
		return EXIT_SCHED;
	}
	s->skel->rodata->slice_ns = o->slice_us * 1000;
	s->skel->rodata->steal_batch = o->batch;
	s->skel->rodata->global_queue = o->global_queue;
	s->skel->rodata->test_fault = o->test_fault;
	memcpy((void *)&s->skel->rodata->plan, plan, sizeof(*plan));
	memcpy((void *)&s->skel->rodata->knobs, knobs, sizeof(*knobs));
	s->skel->rodata->loader_tgid = getpid();
	s->skel->bss->target_cgroup_id = knobs->cgroup_id;
	if ((o->trace_path || o->flight_events) &&
	    (err = bpf_map__set_max_entries(s->skel->maps.trace_rb, FUZZ_TRACE_RB_BYTES))) {
		fprintf(stderr, "scx_fuzz: cannot size the trace buffer: %s\n", strerror(-err));
		return EXIT_SCHED;
	}
	/* --points: the uprobe and its trap handler load only when asked for */
	bpf_program__set_autoload(s->skel->progs.fuzz_point_hit, o->points != NULL);
	bpf_program__set_autoload(s->skel->progs.fuzz_point_resume, o->points != NULL);
	bpf_program__set_autoload(s->skel->progs.fuzz_point_return, o->points != NULL);
	if (o->test_fault == FUZZ_FAULT_VERIFIER &&
	    (err = bpf_program__set_autoload(s->skel->progs.fuzz_verifier_reject, true))) {
		fprintf(stderr, "scx_fuzz: cannot enable the test program: %s\n", strerror(-err));
		return EXIT_SCHED;
	}
	err = scx_fuzz__load(s->skel);
	if (err) {
		fprintf(stderr, "scx_fuzz: cannot load the BPF scheduler: %s%s\n", strerror(-err),
			err == -EACCES || err == -EINVAL ? " (rejected by the kernel's verifier; "
			"last lines of its log:)" : "; libbpf said:");
		print_log_tail(err == -EACCES || err == -EINVAL ? 20 : 6);
		return EXIT_SCHED;
	}
	return 0;
}

/* Fuzz process `pid`'s tree: its threads and every descendant, present and future. */
int sched_add_target(struct sched *s, pid_t pid)
{
	__u32 key = pid;
	__u8 one = 1;
	int err = bpf_map__update_elem(s->skel->maps.target_roots, &key, sizeof(key), &one,
				       sizeof(one), BPF_ANY);

	if (err)
		fprintf(stderr, "scx_fuzz: cannot register target pid %d: %s\n", (int)pid, strerror(-err));
	return err ? EXIT_SCHED : 0;
}

/* Stop fuzzing process `pid`'s tree (it is gone; its pid may be reused). */
void sched_remove_target(struct sched *s, pid_t pid)
{
	__u32 key = pid;

	bpf_map__delete_elem(s->skel->maps.target_roots, &key, sizeof(key), 0);
}

/* The seed of the next decisions: a .bss variable, changed between runs while attached. */
void sched_set_seed(struct sched *s, __u64 seed)
{
	__atomic_store_n(&s->skel->bss->run_seed, seed, __ATOMIC_RELEASE);
}

/* --mode pct, before a run: its D - 1 change points over `steps`, and the step count reset. */
void sched_set_pct(struct sched *s, __u64 seed, unsigned depth, __u64 steps)
{
	struct scx_fuzz__bss *bss = s->skel->bss;
	__u64 at[FUZZ_MAX_DEPTH] = { 0 };
	unsigned n = depth > 1 ? depth - 1 : 0;

	if (n >= FUZZ_MAX_DEPTH)
		n = FUZZ_MAX_DEPTH - 1;
	fuzz_pct_change_points(seed, steps, n, at);
	memcpy(bss->pct_change_at, at, sizeof(at));
	bss->pct_steps = 0;
	bss->pct_next = 0;
	bss->pct_last_pid = 0;
	__atomic_store_n(&bss->pct_nr_changes, n, __ATOMIC_RELEASE);
}

/* serve: the target cgroup made anew (0: gone), and the share of target events left unfuzzed. */
void sched_set_cgroup(struct sched *s, __u64 id)
{
	__atomic_store_n(&s->skel->bss->target_cgroup_id, id, __ATOMIC_RELEASE);
}

void sched_set_unfuzzed(struct sched *s, unsigned pct)
{
	__atomic_store_n(&s->skel->bss->unfuzzed_pct, pct, __ATOMIC_RELEASE);
}

/* Target processes whose main thread ended by a signal or with a non-zero status. */
__u64 sched_target_deaths(const struct sched *s)
{
	return __atomic_load_n(&s->skel->bss->target_deaths, __ATOMIC_ACQUIRE);
}

static int on_trace_event(void *ctx, void *data, size_t size)
{
	if (size >= sizeof(struct fuzz_trace_event))
		trace_add(ctx, data);
	return 0;
}

/* Start recording target events into `t`; 0 or EXIT_SCHED. */
int sched_trace_start(struct sched *s, struct trace *t)
{
	s->rb = ring_buffer__new(bpf_map__fd(s->skel->maps.trace_rb), on_trace_event, t, NULL);
	if (!s->rb) {
		fprintf(stderr, "scx_fuzz: cannot read the trace buffer: %s\n", strerror(errno));
		return EXIT_SCHED;
	}
	__atomic_store_n(&s->skel->bss->trace_on, true, __ATOMIC_RELEASE);
	return 0;
}

/* Stop recording: the trace given to sched_trace_start may go. */
void sched_trace_stop(struct sched *s)
{
	__atomic_store_n(&s->skel->bss->trace_on, false, __ATOMIC_RELEASE);
	if (s->rb) {
		ring_buffer__free(s->rb);
		s->rb = NULL;
	}
}

/* Move what the ring buffer holds into the trace. */
void sched_trace_drain(struct sched *s)
{
	if (s->rb)
		ring_buffer__consume(s->rb);
}

int sched_trace_fd(const struct sched *s)
{
	return s->rb ? ring_buffer__epoll_fd(s->rb) : -1;
}

int sched_attach(struct sched *s)
{
	char state[64], ops[256];
	int err;

	s->link = bpf_map__attach_struct_ops(s->skel->maps.fuzz_ops);
	if (s->link)
		return 0;
	err = errno;
	if (err == EBUSY || err == EEXIST) {
		if (read_sched_ext_state("/sys", state, sizeof(state), ops, sizeof(ops)))
			strcpy(ops, "unknown");
		fprintf(stderr, "scx_fuzz: cannot attach: another sched_ext scheduler is attached: "
			"'%s'; stop it first\n", ops[0] ? ops : "unknown");
	} else {
		fprintf(stderr, "scx_fuzz: cannot attach: %s\n", strerror(err));
		print_log_tail(4);
	}
	return EXIT_SCHED;
}

/* --points: attach the handler that acts on point traps (the uprobes come per run). */
int sched_points_start(struct sched *s)
{
	s->points_link = bpf_program__attach(s->skel->progs.fuzz_point_resume);
	if (!s->points_link) {
		fprintf(stderr, "scx_fuzz: cannot attach the point handler (fexit on uprobe_notify_resume): "
			"%s\n", strerror(errno));
		return EXIT_SCHED;
	}
	s->returns_link = bpf_program__attach(s->skel->progs.fuzz_point_return);
	if (!s->returns_link) {
		fprintf(stderr, "scx_fuzz: cannot attach the return point handler (fexit on "
			"uprobe_handle_trampoline): %s\n", strerror(errno));
		return EXIT_SCHED;
	}
	return 0;
}

/* The last points acted on, oldest first; how many (at most `max`). */
size_t sched_point_log(const struct sched *s, struct fuzz_point_act *acts, size_t max)
{
	__u64 n = __atomic_load_n(&s->skel->bss->point_log_n, __ATOMIC_ACQUIRE), first;
	size_t k = 0;

	first = n > FUZZ_POINT_LOG ? n - FUZZ_POINT_LOG : 0;
	for (__u64 i = first; i < n && k < max; i++)
		acts[k++] = s->skel->bss->point_log[i % FUZZ_POINT_LOG];
	return k;
}

/* --points, before a run: no point acted on yet, and the run's chance to act. */
void sched_point_log_reset(struct sched *s, __u32 point_ppm)
{
	__atomic_store_n(&s->skel->bss->point_log_n, 0, __ATOMIC_RELEASE);
	__atomic_store_n(&s->skel->bss->point_ppm_run, point_ppm, __ATOMIC_RELEASE);
}

bool sched_exited(const struct sched *s)
{
	return __atomic_load_n(&s->skel->bss->exit_record.kind, __ATOMIC_ACQUIRE) != 0;
}

bool sched_exit_is_error(const struct sched *s)
{
	return s->skel->bss->exit_record.kind >= SCX_EXIT_ERROR_KIND;
}

void sched_print_exit(const struct sched *s)
{
	const struct fuzz_exit_record *r = &s->skel->bss->exit_record;

	if (!sched_exited(s)) {
		fprintf(stderr, "scx_fuzz: exit: no exit reason recorded\n");
		return;
	}
	fprintf(stderr, "scx_fuzz: exit: %s%s%s\n", r->reason[0] ? r->reason : "unknown",
		r->msg[0] ? ": " : "", r->msg);
	/* On an error the kernel's dump of queues and tasks says what went wrong. */
	if (sched_exit_is_error(s) && r->dump[0]) {
		const char *dump_file = getenv("SCX_FUZZ_DUMP");
		FILE *f = dump_file ? fopen(dump_file, "w") : NULL;

		fprintf(f ? f : stderr, "%s%s", r->dump, f ? "" : "\n");
		if (f) {
			fclose(f);
			fprintf(stderr, "scx_fuzz: the kernel's state dump is in %s\n", dump_file);
		}
	}
}

int sched_read_stats(const struct sched *s, uint64_t sums[FUZZ_NR_STATS])
{
	int ncpus = libbpf_num_possible_cpus(), err = 0;
	uint64_t *vals;
	__u32 idx;

	if (ncpus <= 0)
		return ncpus ? ncpus : -EINVAL;
	vals = calloc(ncpus, sizeof(*vals));
	if (!vals)
		return -ENOMEM;
	for (idx = 0; idx < FUZZ_NR_STATS; idx++) {
		sums[idx] = 0;
		err = bpf_map__lookup_elem(s->skel->maps.stats, &idx, sizeof(idx), vals,
					   ncpus * sizeof(*vals), 0);
		if (err)
			break;
		for (int cpu = 0; cpu < ncpus; cpu++)
			sums[idx] += vals[cpu];
	}
	free(vals);
	return err;
}

void sched_print_stats(const struct sched *s, FILE *out)
{
	uint64_t sums[FUZZ_NR_STATS];
	int err = sched_read_stats(s, sums);

	if (err) {
		fprintf(stderr, "scx_fuzz: cannot read stats: %s\n", strerror(-err));
		return;
	}
	stats_print(out, sums);
}

/* Unregister from the kernel; ops.exit has run when this returns. */
void sched_detach(struct sched *s)
{
	struct bpf_link **links[] = { &s->exec_link, &s->fork_link };

	for (size_t i = 0; i < sizeof(links) / sizeof(links[0]); i++) {
		bpf_link__destroy(*links[i]);
		*links[i] = NULL;
	}
	if (s->points_link) {
		bpf_link__destroy(s->points_link);
		s->points_link = NULL;
	}
	if (s->returns_link) {
		bpf_link__destroy(s->returns_link);
		s->returns_link = NULL;
	}
	if (s->link) {
		bpf_link__destroy(s->link);
		s->link = NULL;
	}
}

/* Detach if still attached, then free everything; safe to call twice. */
void sched_destroy(struct sched *s)
{
	sched_detach(s);
	if (s->rb) {
		ring_buffer__free(s->rb);
		s->rb = NULL;
	}
	ring_buffer__free(s->images_rb);
	s->images_rb = NULL;
	if (s->skel) {
		scx_fuzz__destroy(s->skel);
		s->skel = NULL;
	}
}
