/* SPDX-License-Identifier: GPL-2.0 */
/* serve's metrics, Prometheus text or JSON: every counter, the budget used, labels escaped, written whole. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "scx_fuzz.h"
#include "metrics.h"

Test(metrics, counters_share_and_escaped_label)
{
	uint64_t sums[FUZZ_NR_STATS] = { 0 };
	struct metrics m = { .target = "a\"b\\c", .sums = sums, .attached = true,
			     .unfuzzed_ratio = 0.75, .cpu_pressure = 12.5 };
	char path[] = "/tmp/scx-fuzz-metrics-XXXXXX", tmp[64], text[1 << 16];
	FILE *f;
	size_t n;

	close(mkstemp(path));
	sums[FUZZ_STAT_DELAY_NS] = 10;
	sums[FUZZ_STAT_TARGET_RUN_NS] = 1000;
	sums[FUZZ_STAT_BACKED_OFF] = 7;
	cr_assert_eq(metrics_write(path, &m, false), 0);
	f = fopen(path, "r");
	n = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	text[n] = 0;
	cr_assert(strstr(text, "scx_fuzz_delay_share{target=\"a\\\"b\\\\c\"} 0.01\n"), "%s", text);
	cr_assert(strstr(text, "scx_fuzz_backed_off_total{target=\"a\\\"b\\\\c\"} 7\n"));
	cr_assert(strstr(text, "scx_fuzz_unfuzzed_ratio{target=\"a\\\"b\\\\c\"} 0.75\n"));
	cr_assert(strstr(text, "# TYPE scx_fuzz_attached gauge\n"));
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	cr_assert_neq(access(tmp, F_OK), 0, "the temporary file is renamed away");
	unlink(path);
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
	char path[] = "/tmp/scx-fuzz-metrics-XXXXXX", text[1 << 16];
	FILE *f;
	size_t n;

	close(mkstemp(path));
	sums[FUZZ_STAT_DELAY_NS] = 5;
	sums[FUZZ_STAT_TARGET_RUN_NS] = 1000;
	sums[FUZZ_STAT_BACKED_OFF] = 7;
	cr_assert_eq(metrics_write(path, &m, true), 0);
	f = fopen(path, "r");
	n = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	text[n] = 0;
	cr_assert(strstr(text, "\"target\":\"system.slice/w.service\""), "%s", text);
	cr_assert(strstr(text, "\"attached\":true"), "%s", text);
	cr_assert(strstr(text, "\"flight_records\":2"), "%s", text);
	cr_assert(strstr(text, "\"unfuzzed_ratio\":0.5"), "%s", text);
	cr_assert(strstr(text, "\"delay_share\":0.005"), "%s", text);
	cr_assert(strstr(text, "\"backed_off\":7"), "%s", text);
	cr_assert_eq(text[0], '{');
	cr_assert_eq(text[n - 1], '\n');
	unlink(path);
}
