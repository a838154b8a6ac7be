/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The scheduler holds a target process that execs (or a process with points
 * that forks) until the loader answers, at most knobs.image_wait_ns
 * (bpf/images.bpf.h). Here: the tracing programs that see those events, the
 * ring buffer they come through, and the answer, written to BPF maps.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "execwait.h"
#include "sched.h"
#include "scx_fuzz.h"
#include "scx_fuzz.skel.h"

int sched_images_start(struct sched *s, int (*on_event)(void *ctx, void *data, size_t size), void *ctx)
{
	s->images_rb = ring_buffer__new(bpf_map__fd(s->skel->maps.image_rb), on_event, ctx, NULL);
	if (!s->images_rb) {
		fprintf(stderr, "scx_fuzz: cannot read the new processes' buffer: %s\n", strerror(errno));
		return EXIT_SCHED;
	}
	s->fork_link = bpf_program__attach(s->skel->progs.fuzz_image_fork);
	if (!s->fork_link) {
		fprintf(stderr, "scx_fuzz: cannot watch the target's forks (tp_btf/sched_process_fork): %s\n",
			strerror(errno));
		return EXIT_SCHED;
	}
	/* last: an exec seen is one whose kick and fork are seen too */
	s->exec_link = bpf_program__attach(s->skel->progs.fuzz_image_exec);
	if (!s->exec_link) {
		fprintf(stderr, "scx_fuzz: cannot watch the target's execs (tp_btf/sched_process_exec): %s\n",
			strerror(errno));
		return EXIT_SCHED;
	}
	return 0;
}

int sched_images_fd(const struct sched *s)
{
	return s->images_rb ? ring_buffer__epoll_fd(s->images_rb) : -1;
}

void sched_images_drain(struct sched *s)
{
	if (s->images_rb)
		ring_buffer__consume(s->images_rb);
}

void sched_image_answer(struct sched *s, pid_t tgid, bool pointed)
{
	__u32 key = tgid;
	__u8 one = 1;

	/* pointed first: a fork right after the answer must already wait */
	if (pointed)
		bpf_map__update_elem(s->skel->maps.pointed_procs, &key, sizeof(key), &one, sizeof(one), BPF_ANY);
	bpf_map__update_elem(s->skel->maps.image_ready, &key, sizeof(key), &one, sizeof(one), BPF_ANY);
}
