/* SPDX-License-Identifier: GPL-2.0 */
/* The libbpf log ring keeps the last lines, split correctly across calls. */
#include <criterion/criterion.h>
#include <stdio.h>

#include "fuzz.h"
#include "bpflog.h"

Test(bpflog, tail_is_last_lines_in_order)
{
	char line[32], tail[256];

	bpflog_reset();
	for (int i = 0; i < 1000; i++) {
		snprintf(line, sizeof(line), "line %d\n", i);
		bpflog_add(line);
	}
	bpflog_tail(tail, sizeof(tail), 3);
	cr_assert_str_eq(tail, "line 997\nline 998\nline 999\n");
}

Test(bpflog, partial_lines_join_and_long_messages_split)
{
	char tail[256];

	bpflog_reset();
	bpflog_add("libbpf: prog 'x': ");
	bpflog_add("failed to load\n-- BEGIN --\nR0 invalid mem access\n-- END --\n");
	bpflog_tail(tail, sizeof(tail), 4);
	cr_assert_str_eq(tail, "libbpf: prog 'x': failed to load\n-- BEGIN --\n"
			       "R0 invalid mem access\n-- END --\n");
}

Test(bpflog, tail_fits_small_buffer)
{
	char tail[8];

	bpflog_reset();
	bpflog_add("a long line of text\n");
	cr_assert_leq(bpflog_tail(tail, sizeof(tail), 5), sizeof(tail) - 1);
	cr_assert_eq(tail[sizeof(tail) - 1], '\0');
}
