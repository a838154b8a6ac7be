/* SPDX-License-Identifier: GPL-2.0 */
/* serve's metrics, Prometheus text or JSON: every counter, the budget used, labels escaped, written whole. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "scx_fuzz.h"
#include "metrics.h"

/* Write `m` to a fresh file as Prometheus text or JSON; its text in `text`; the file removed. */
static size_t write_and_read(const struct metrics *m, bool as_json, char *text, size_t size)
{
	char path[] = "/tmp/scx-fuzz-metrics-XXXXXX", tmp[64];
	FILE *f;
	size_t n;

	close(mkstemp(path));
	cr_assert_eq(metrics_write(path, m, as_json), 0);
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	cr_assert_neq(access(tmp, F_OK), 0, "the temporary file is renamed away");
	f = fopen(path, "r");
	n = fread(text, 1, size - 1, f);
	fclose(f);
	text[n] = 0;
	unlink(path);
	return n;
}

Test(metrics, counters_share_and_escaped_label)
{
	uint64_t sums[FUZZ_NR_STATS] = { 0 };
	struct metrics m = { .target = "a\"b\\c", .sums = sums, .attached = true,
			     .unfuzzed_ratio = 0.75, .cpu_pressure = 12.5 };
	char text[1 << 16];

	sums[FUZZ_STAT_DELAY_NS] = 10;
	sums[FUZZ_STAT_TARGET_RUN_NS] = 1000;
	sums[FUZZ_STAT_BACKED_OFF] = 7;
	write_and_read(&m, false, text, sizeof(text));
	cr_assert(strstr(text, "scx_fuzz_delay_share{target=\"a\\\"b\\\\c\"} 0.01\n"), "%s", text);
	cr_assert(strstr(text, "scx_fuzz_backed_off_total{target=\"a\\\"b\\\\c\"} 7\n"));
	cr_assert(strstr(text, "scx_fuzz_unfuzzed_ratio{target=\"a\\\"b\\\\c\"} 0.75\n"));
	cr_assert(strstr(text, "# TYPE scx_fuzz_attached gauge\n"));
}

Test(metrics, unwritable_directory)
{
	uint64_t sums[FUZZ_NR_STATS] = { 0 };
	struct metrics m = { .target = "x", .sums = sums };

	cr_assert_lt(metrics_write("/nonexistent/dir/m.prom", &m, false), 0);
}

Test(metrics, the_same_as_json)
{
	uint64_t sums[FUZZ_NR_STATS] = { 0 };
	struct metrics m = { .target = "system.slice/w.service", .sums = sums, .attached = true,
			     .flight_records = 2, .unfuzzed_ratio = 0.5, .cpu_pressure = 3 };
	char text[1 << 16];
	size_t n;

	sums[FUZZ_STAT_DELAY_NS] = 5;
	sums[FUZZ_STAT_TARGET_RUN_NS] = 1000;
	sums[FUZZ_STAT_BACKED_OFF] = 7;
	n = write_and_read(&m, true, text, sizeof(text));
	cr_assert(strstr(text, "\"target\":\"system.slice/w.service\""), "%s", text);
	cr_assert(strstr(text, "\"attached\":true"), "%s", text);
	cr_assert(strstr(text, "\"flight_records\":2"), "%s", text);
	cr_assert(strstr(text, "\"unfuzzed_ratio\":0.5"), "%s", text);
	cr_assert(strstr(text, "\"delay_share\":0.005"), "%s", text);
	cr_assert(strstr(text, "\"backed_off\":7"), "%s", text);
	cr_assert_eq(text[0], '{');
	cr_assert_eq(text[n - 1], '\n');
}
