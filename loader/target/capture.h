/* SPDX-License-Identifier: GPL-2.0 */
/* The target's output for the runner: tail and --fail-on (capture.c). */
#ifndef FUZZ_CAPTURE_H
#define FUZZ_CAPTURE_H

#include <regex.h>
#include <stdbool.h>
#include <stdio.h>

#include "result.h"

#define CAPTURE_TAIL_LINES OUTPUT_TAIL_LINES

struct capture {
	int fd;				/* read end; -1 when not capturing */
	bool echo;			/* copy the output to our stdout as it comes */
	bool has_re, matched;		/* --fail-on given / it matched a line */
	regex_t fail_re;
	char matched_line[256];
	char line[4096];		/* the line being read */
	size_t line_len;
	char *tail[CAPTURE_TAIL_LINES];	/* ring of the last lines */
	unsigned tail_next, tail_n;
};

/* Make the pipe: *child_fd is the write end the target's stdout and stderr go to. */
int capture_open(struct capture *c, const char *fail_on, bool echo, int *child_fd);
bool capture_read(struct capture *c);
void capture_finish(struct capture *c);
/* The tail and the --fail-on match as plain data; valid until the next capture call. */
void capture_tail(const struct capture *c, struct output_tail *tail);
void capture_close(struct capture *c);

#endif /* FUZZ_CAPTURE_H */
