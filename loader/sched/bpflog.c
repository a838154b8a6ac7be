/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libbpf prints the verifier's log and its own warnings through a callback.
 * We keep the last lines in a ring and show only the tail when loading fails;
 * -v prints everything as it comes.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/libbpf.h>

#include "fuzz.h"
#include "bpflog.h"

enum { LOG_LINES = 256, LOG_LINE_LEN = 256 };

static char ring[LOG_LINES][LOG_LINE_LEN];
static unsigned ring_next, ring_count;
static char partial[LOG_LINE_LEN];
static bool log_verbose;

static void push_line(const char *line, size_t len)
{
	if (len >= LOG_LINE_LEN)
		len = LOG_LINE_LEN - 1;
	memcpy(ring[ring_next], line, len);
	ring[ring_next][len] = '\0';
	ring_next = (ring_next + 1) % LOG_LINES;
	if (ring_count < LOG_LINES)
		ring_count++;
}

/* Split text into lines; an unterminated tail waits for the next call. */
void bpflog_add(const char *text)
{
	char line[LOG_LINE_LEN];
	const char *p, *nl;

	for (p = text; (nl = strchr(p, '\n')); p = nl + 1) {
		snprintf(line, sizeof(line), "%s%.*s", partial, (int)(nl - p), p);
		partial[0] = '\0';
		push_line(line, strlen(line));
	}
	strncat(partial, p, sizeof(partial) - strlen(partial) - 1);
}

void bpflog_reset(void)
{
	ring_next = ring_count = 0;
	partial[0] = '\0';
}

/* Copy the last nlines lines, oldest first, each ending in '\n'. */
size_t bpflog_tail(char *buf, size_t len, unsigned nlines)
{
	unsigned n = nlines < ring_count ? nlines : ring_count, i;
	size_t used = 0;

	if (len)
		buf[0] = '\0';
	for (i = 0; i < n && used + 1 < len; i++) {
		const char *line = ring[(ring_next + LOG_LINES - n + i) % LOG_LINES];
		int w = snprintf(buf + used, len - used, "%s\n", line);

		if (w < 0)
			break;
		used += (size_t)w < len - used ? (size_t)w : len - used - 1;
	}
	return used;
}

static int print_cb(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	char *text;

	if (level == LIBBPF_DEBUG && !log_verbose)
		return 0;
	/* The verifier log arrives as one long message: format it whole. */
	if (vasprintf(&text, fmt, ap) < 0)
		return 0;
	if (log_verbose)
		fputs(text, stderr);
	bpflog_add(text);
	free(text);
	return 0;
}

void bpflog_install(bool verbose)
{
	log_verbose = verbose;
	libbpf_set_print(print_cb);
}
