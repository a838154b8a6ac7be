/* SPDX-License-Identifier: GPL-2.0 */
/* --json FILE: the campaign for CI systems (schema in docs/usage.md). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "campaign.h"

/* Length of the valid UTF-8 sequence at s (within max bytes), 0 if invalid. */
static size_t utf8_len(const unsigned char *s, size_t max)
{
	size_t n = s[0] >= 0xf0 && s[0] <= 0xf4 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc2 ? 2 : 0;

	if (!n || n > max)
		return 0;
	for (size_t i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	return n;
}

/* Control characters escaped; UTF-8 kept; stray bytes (a name cut mid-character) become U+FFFD. */
void json_chars(FILE *f, const char *s, size_t max)
{
	for (size_t i = 0, n; i < max && s[i]; i++) {
		unsigned char ch = s[i];

		if (ch == '"' || ch == '\\') {
			fprintf(f, "\\%c", ch);
		} else if (ch < 0x20 || ch == 0x7f) {
			fprintf(f, "\\u%04x", ch);
		} else if (ch < 0x80) {
			fputc(ch, f);
		} else if ((n = utf8_len((const unsigned char *)s + i, max - i))) {
			fwrite(s + i, 1, n, f);
			i += n - 1;
		} else {
			fputs("\\ufffd", f);
		}
	}
}

static void json_str(FILE *f, const char *s)
{
	if (!s) {
		fputs("null", f);
		return;
	}
	fputc('"', f);
	json_chars(f, s, (size_t)-1);
	fputc('"', f);
}

static void json_argv(FILE *f, char **argv, int n)
{
	fputc('[', f);
	for (int i = 0; i < n && argv[i]; i++) {
		if (i)
			fputc(',', f);
		json_str(f, argv[i]);
	}
	fputc(']', f);
}

static void json_run(FILE *f, const struct run *r)
{
	fprintf(f, "{\"run\":%lu,\"seed\":%llu,\"duration_s\":%.3f,\"result\":\"%s\",\"failed\":%s,",
		r->n, (unsigned long long)r->seed, r->duration_s, run_result_name(r->result),
		run_failed(r->result) ? "true" : "false");
	if (r->status < 0)
		fprintf(f, "\"exit_status\":null,\"signal\":null,");
	else if (r->result == RUN_SIGNAL)
		fprintf(f, "\"exit_status\":null,\"signal\":%d,", r->status - 128);
	else
		fprintf(f, "\"exit_status\":%d,\"signal\":null,", r->status);
	fprintf(f, "\"counters\":{");
	for (int i = 0; i < FUZZ_NR_STATS; i++)
		fprintf(f, "%s\"%s\":%llu", i ? "," : "", fuzz_stat_names[i],
			(unsigned long long)r->counters[i]);
	fprintf(f, "}}");
}

/* Why scx_fuzz exits with `status`: its own codes are named, CMD's are "command". */
static const char *exit_meaning(const struct campaign *c, int status)
{
	if (c->stop == STOP_EJECTED || (c->stop == STOP_ERROR && status == EXIT_SCHED))
		return "scheduler";	/* 3: could not attach, or ejected */
	if (c->stop == STOP_ERROR)
		return "command-not-runnable";
	if (!is_campaign(c->o))
		return "command";	/* CMD's own status, passed through */
	return status == 1 ? "failure-found" : status == 0 ? "no-failure" : "interrupted";
}

int report_json(const struct campaign *c, const char *path, int exit_status)
{
	const struct fuzz_opts *o = c->o;
	FILE *f = fopen(path, "w");
	int n = 0;

	if (!f) {
		fprintf(stderr, "scx_fuzz: cannot write %s: %s\n", path, strerror(errno));
		return -errno;
	}
	while (o->cmd[n])
		n++;
	fprintf(f, "{\"tool\":\"scx_fuzz\",\"version\":\"%s\",\"argv\":", SCX_FUZZ_VERSION);
	json_argv(f, o->argv, o->argc);
	fprintf(f, ",\"command\":");
	json_argv(f, o->cmd, n);
	fprintf(f, ",\"options\":{\"intensity\":");
	json_str(f, o->intensity ? o->intensity : "medium");
	fprintf(f, ",\"seed\":%llu,\"repeat\":%lu,\"until\":%s,\"timeout_s\":%g,\"fail_on\":",
		(unsigned long long)c->seed, o->repeat,
		o->until == UNTIL_FAILURE ? "\"failure\"" : o->until == UNTIL_SUCCESS ? "\"success\"" : "null",
		o->timeout_s);
	json_str(f, o->fail_on);
	fprintf(f, ",\"error_command\":");
	json_str(f, o->error_cmd);
	fprintf(f, "},\"kernel\":");
	json_str(f, c->kernel);
	fprintf(f, ",\"topology\":{\"cpus\":%d,\"llcs\":%d,\"nodes\":%d},\"runs\":[",
		c->nr_cpus, c->nr_llcs, c->nr_nodes);
	for (unsigned long i = 0; i < c->nr_runs; i++) {
		fputs(i ? ",\n" : "\n", f);
		json_run(f, &c->runs[i]);
	}
	fprintf(f, "],\n\"summary\":{\"runs\":%lu,\"failures\":%lu,\"elapsed_s\":%.3f,"
		"\"exit_status\":%d,\"exit_meaning\":\"%s\"}}\n", c->nr_runs, c->failures, c->elapsed_s,
		exit_status, exit_meaning(c, exit_status));
	if (fclose(f)) {
		fprintf(stderr, "scx_fuzz: cannot write %s: %s\n", path, strerror(errno));
		return -errno;
	}
	return 0;
}
