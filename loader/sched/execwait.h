/* SPDX-License-Identifier: GPL-2.0 */
/*
 * --points through the target tree, the scheduler's side (execwait.c): the
 * processes that exec or fork and wait for their points, and the answer.
 */
#ifndef FUZZ_EXECWAIT_H
#define FUZZ_EXECWAIT_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct sched;

/* Each waiting process is given to `on_event` (a struct fuzz_image_event) by sched_images_drain. */
int sched_images_start(struct sched *s, int (*on_event)(void *ctx, void *data, size_t size), void *ctx);
int sched_images_fd(const struct sched *s);
void sched_images_drain(struct sched *s);
/* Process `tgid` may run: its points are placed (`pointed`: it has some, so its forks wait too). */
void sched_image_answer(struct sched *s, pid_t tgid, bool pointed);

#endif /* FUZZ_EXECWAIT_H */
