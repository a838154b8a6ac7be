/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The target's output, when the runner needs it: its last lines for the
 * failure report, and --fail-on matching line by line. The target writes
 * stdout and stderr into one pipe (so their order is kept); we read it
 * without blocking from the supervision loop.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capture.h"

int capture_open(struct capture *c, const char *fail_on, bool echo, int *child_fd)
{
	int fds[2];

	memset(c, 0, sizeof(*c));
	c->fd = -1;
	c->echo = echo;
	if (fail_on) {
		if (regcomp(&c->fail_re, fail_on, REG_EXTENDED | REG_NOSUB))
			return -EINVAL;
		c->has_re = true;
	}
	if (pipe2(fds, O_CLOEXEC)) {
		capture_close(c);
		return -errno;
	}
	fcntl(fds[0], F_SETFL, O_NONBLOCK);
	c->fd = fds[0];
	*child_fd = fds[1];
	return 0;
}

/* One complete line of output: keep it in the tail ring, match it. */
static void take_line(struct capture *c, const char *line)
{
	char *copy = strdup(line);

	if (copy) {
		free(c->tail[c->tail_next]);
		c->tail[c->tail_next] = copy;
		c->tail_next = (c->tail_next + 1) % CAPTURE_TAIL_LINES;
		if (c->tail_n < CAPTURE_TAIL_LINES)
			c->tail_n++;
	}
	if (c->has_re && !c->matched && !regexec(&c->fail_re, line, 0, NULL, 0)) {
		c->matched = true;
		snprintf(c->matched_line, sizeof(c->matched_line), "%s", line);
	}
}

static void take_bytes(struct capture *c, const char *buf, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (buf[i] == '\n' || c->line_len == sizeof(c->line) - 1) {
			c->line[c->line_len] = 0;
			take_line(c, c->line);
			c->line_len = 0;
			if (buf[i] == '\n')
				continue;
		}
		c->line[c->line_len++] = buf[i];
	}
}

/* Read what is there; returns false once the pipe is closed (every writer gone). */
bool capture_read(struct capture *c)
{
	char buf[8192];
	ssize_t n;

	if (c->fd < 0)
		return false;
	for (;;) {
		n = read(c->fd, buf, sizeof(buf));
		if (n > 0) {
			if (c->echo && fwrite(buf, 1, n, stdout) != (size_t)n)
				c->echo = false;
			take_bytes(c, buf, n);
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (c->echo)
			fflush(stdout);
		return n < 0;	/* EAGAIN: still open; 0: end of file */
	}
}

/* After the run: the rest of the output and the last partial line. */
void capture_finish(struct capture *c)
{
	capture_read(c);
	if (c->line_len) {
		c->line[c->line_len] = 0;
		take_line(c, c->line);
		c->line_len = 0;
	}
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
}

void capture_tail(const struct capture *c, struct output_tail *tail)
{
	unsigned first = (c->tail_next + CAPTURE_TAIL_LINES - c->tail_n) % CAPTURE_TAIL_LINES;

	tail->n = c->tail_n;
	for (unsigned i = 0; i < c->tail_n; i++)
		tail->lines[i] = c->tail[(first + i) % CAPTURE_TAIL_LINES];
	tail->matched_line = c->matched ? c->matched_line : NULL;
}

void capture_close(struct capture *c)
{
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
	for (unsigned i = 0; i < CAPTURE_TAIL_LINES; i++) {
		free(c->tail[i]);
		c->tail[i] = NULL;
	}
	if (c->has_re)
		regfree(&c->fail_re);
	c->has_re = c->matched = false;
	c->tail_n = c->tail_next = 0;
}
