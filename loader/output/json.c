/* SPDX-License-Identifier: GPL-2.0 */
/* --json FILE: the campaign for CI systems (schema in docs/usage.md), built with json-c. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>

#include "json.h"
#include "stats.h"

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

/* json-c escapes quotes and control characters but copies bytes as they are: keep its input UTF-8. */
struct json_object *json_text(const char *s, size_t max)
{
	size_t len = strnlen(s, max), o = 0;
	char *clean = malloc(3 * len + 1);	/* a stray byte grows to U+FFFD's 3 bytes */
	struct json_object *str;

	if (!clean)
		return NULL;
	for (size_t i = 0, n; i < len; i++) {
		if ((unsigned char)s[i] < 0x80) {
			clean[o++] = s[i];
		} else if ((n = utf8_len((const unsigned char *)s + i, len - i))) {
			memcpy(clean + o, s + i, n);
			o += n;
			i += n - 1;
		} else {
			memcpy(clean + o, "\xef\xbf\xbd", 3);
			o += 3;
		}
	}
	str = json_object_new_string_len(clean, (int)o);
	free(clean);
	return str;
}

int json_write(struct json_object *obj, FILE *f)
{
	const char *text = json_object_to_json_string_ext(obj, JSON_C_TO_STRING_PLAIN |
							  JSON_C_TO_STRING_NOSLASHESCAPE);

	if (!text || fputs(text, f) < 0)
		return -EIO;
	return 0;
}

static struct json_object *text_or_null(const char *s)
{
	return s ? json_text(s, (size_t)-1) : NULL;
}

struct json_object *json_number(const char *fmt, double v)
{
	char buf[64];

	snprintf(buf, sizeof(buf), fmt, v);
	return json_object_new_double_s(v, buf);
}

static struct json_object *argv_array(char **argv, int n)
{
	struct json_object *a = json_object_new_array();

	for (int i = 0; a && i < n && argv[i]; i++)
		json_object_array_add(a, text_or_null(argv[i]));
	return a;
}

static struct json_object *run_object(const struct run *r)
{
	struct json_object *o = json_object_new_object(), *counters = json_object_new_object();
	bool signalled = r->status >= 0 && r->result == RUN_SIGNAL;

	json_object_object_add(o, "run", json_object_new_uint64(r->n));
	json_object_object_add(o, "seed", json_object_new_uint64(r->seed));
	json_object_object_add(o, "duration_s", json_number("%.3f", r->duration_s));
	json_object_object_add(o, "result", json_object_new_string(run_result_name(r->result)));
	json_object_object_add(o, "failed", json_object_new_boolean(run_failed(r->result)));
	json_object_object_add(o, "exit_status", r->status < 0 || signalled ? NULL :
			       json_object_new_int(r->status));
	json_object_object_add(o, "signal", signalled ? json_object_new_int(r->status - 128) : NULL);
	for (int i = 0; i < FUZZ_NR_STATS; i++)
		json_object_object_add(counters, fuzz_stat_names[i], json_object_new_uint64(r->counters[i]));
	json_object_object_add(o, "counters", counters);
	return o;
}

/* Why scx_fuzz exits with `status`: its own codes are named, CMD's are "command". */
static const char *exit_meaning(const struct campaign_result *res, int status)
{
	if (res->stop == STOP_EJECTED || (res->stop == STOP_ERROR && status == EXIT_SCHED))
		return "scheduler";	/* 3: could not attach, or ejected */
	if (res->stop == STOP_ERROR)
		return "command-not-runnable";
	if (!is_campaign(res->o))
		return "command";	/* CMD's own status, passed through */
	return status == 1 ? "failure-found" : status == 0 ? "no-failure" : "interrupted";
}

static struct json_object *options_object(const struct campaign_result *res)
{
	const struct fuzz_opts *o = res->o;
	struct json_object *opts = json_object_new_object();

	json_object_object_add(opts, "intensity", text_or_null(o->intensity ?: "medium"));
	json_object_object_add(opts, "seed", json_object_new_uint64(res->seed));
	json_object_object_add(opts, "repeat", json_object_new_uint64(o->repeat));
	json_object_object_add(opts, "until", o->until == UNTIL_NONE ? NULL : json_object_new_string(
				       o->until == UNTIL_FAILURE ? "failure" : "success"));
	json_object_object_add(opts, "timeout_s", json_number("%g", o->timeout_s));
	json_object_object_add(opts, "fail_on", text_or_null(o->fail_on));
	json_object_object_add(opts, "error_command", text_or_null(o->error_cmd));
	return opts;
}

static struct json_object *campaign_object(const struct campaign_result *res, int exit_status)
{
	struct json_object *top = json_object_new_object(), *topo = json_object_new_object();
	struct json_object *runs = json_object_new_array(), *sum = json_object_new_object();
	int n = 0;

	while (res->o->cmd[n])
		n++;
	json_object_object_add(top, "tool", json_object_new_string("scx_fuzz"));
	json_object_object_add(top, "version", json_object_new_string(SCX_FUZZ_VERSION));
	json_object_object_add(top, "argv", argv_array(res->o->argv, res->o->argc));
	json_object_object_add(top, "command", argv_array(res->o->cmd, n));
	json_object_object_add(top, "options", options_object(res));
	json_object_object_add(top, "kernel", text_or_null(res->kernel));
	json_object_object_add(topo, "cpus", json_object_new_int(res->nr_cpus));
	json_object_object_add(topo, "llcs", json_object_new_int(res->nr_llcs));
	json_object_object_add(topo, "nodes", json_object_new_int(res->nr_nodes));
	json_object_object_add(top, "topology", topo);
	for (unsigned long i = 0; i < res->nr_runs; i++)
		json_object_array_add(runs, run_object(&res->runs[i]));
	json_object_object_add(top, "runs", runs);
	json_object_object_add(sum, "runs", json_object_new_uint64(res->nr_runs));
	json_object_object_add(sum, "failures", json_object_new_uint64(res->failures));
	json_object_object_add(sum, "elapsed_s", json_number("%.3f", res->elapsed_s));
	json_object_object_add(sum, "exit_status", json_object_new_int(exit_status));
	json_object_object_add(sum, "exit_meaning", json_object_new_string(exit_meaning(res, exit_status)));
	json_object_object_add(top, "summary", sum);
	return top;
}

int report_json(const struct campaign_result *res, const char *path, int exit_status)
{
	struct json_object *top = campaign_object(res, exit_status);
	FILE *f = fopen(path, "w");
	int err = 0;

	if (!f)
		err = -errno;
	else if (!top || json_write(top, f) || fputc('\n', f) == EOF)
		err = -EIO;
	if (f && fclose(f) && !err)
		err = -errno;
	if (err)
		fprintf(stderr, "scx_fuzz: cannot write %s: %s\n", path, strerror(-err));
	json_object_put(top);
	return err;
}
