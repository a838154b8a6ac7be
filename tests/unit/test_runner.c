/* SPDX-License-Identifier: GPL-2.0 */
/* The runner's pure parts: run seeds, the reproduction line, output capture, trace JSON. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <json-c/json.h>

#include "fuzz.h"
#include "capture.h"
#include "errcheck.h"
#include "json.h"
#include "repro.h"
#include "trace.h"
#include "tree.h"

Test(runner, run_seeds)
{
	cr_assert_eq(run_seed_of(1234, 1), 1234, "run 1 uses the campaign seed itself");
	cr_assert_neq(run_seed_of(1234, 2), run_seed_of(1234, 3));
	cr_assert_neq(run_seed_of(1234, 2), run_seed_of(1235, 2));
	cr_assert_lt(run_seed_of(1234, 99), 1ULL << 53, "seeds stay JSON-safe");
	cr_assert_eq(run_seed_of(7, 5), run_seed_of(7, 5));
}

static const char *repro(char **argv, unsigned long long seed)
{
	static char buf[4096];
	int argc = 0;

	while (argv[argc])
		argc++;
	format_repro(argc, argv, seed, 0, NULL, buf, sizeof(buf));
	return buf;
}

Test(runner, repro_drops_campaign_flags_and_pins_the_seed)
{
	char *a[] = { "scx_fuzz", "--until-failure", "--repeat", "50", "--seed", "9", "-i", "high",
		      "--json=out.json", "--timeout", "10", "--", "./expiry", "-t", "8", NULL };

	cr_assert_str_eq(repro(a, 77), "scx_fuzz --seed 77 -i high --timeout 10 -- ./expiry -t 8");
	char *b[] = { "build/scx_fuzz", "-r", "5", "-r5", "--fail-on", "race hit", "--seed=3",
		      "--until-success", "sh", "-c", "echo 'hi'; exit 1", NULL };

	cr_assert_str_eq(repro(b, 1),
			 "build/scx_fuzz --seed 1 --fail-on 'race hit' -- sh -c 'echo '\\''hi'\\''; exit 1'");
	char *c[] = { "scx_fuzz", "--java", "--max-iterations", "20", "--iteration-time", "30",
		      "--error-command", "test -e /tmp/x", "--", "java", "Queue", NULL };

	cr_assert_str_eq(repro(c, 4), "scx_fuzz --seed 4 --java --iteration-time 30 "
			 "--error-command 'test -e /tmp/x' -- java Queue", "the seed's names for campaigns dropped too");
}

/* --points: a later run's line keeps the campaign's point sample, whatever seed it names. */
Test(runner, repro_with_points_names_their_seed)
{
	char *a[] = { "scx_fuzz", "--points", "auto", "--repeat", "12", "--point-seed", "5", "--seed", "9",
		      "--", "./prog", NULL };
	char buf[512];
	__u64 ps = 9;

	format_repro(11, a, 1234, 0, &ps, buf, sizeof(buf));
	cr_assert_str_eq(buf, "scx_fuzz --seed 1234 --point-seed 9 --points auto -- ./prog");
}

/* Write text into a capture as the target would, then finish. */
static void feed(struct capture *c, int wfd, const char *text)
{
	cr_assert_eq(write(wfd, text, strlen(text)), (ssize_t)strlen(text));
	capture_read(c);
}

Test(runner, capture_keeps_the_tail_and_matches)
{
	struct capture c;
	int wfd;
	char line[64];

	cr_assert_eq(capture_open(&c, "race (hit|seen)", false, &wfd), 0);
	for (int i = 0; i < 30; i++) {
		snprintf(line, sizeof(line), "line %d\n", i);
		feed(&c, wfd, line);
	}
	feed(&c, wfd, "expiry: race hit: item 3\npartial");
	close(wfd);
	capture_finish(&c);
	cr_assert(c.matched);
	cr_assert_str_eq(c.matched_line, "expiry: race hit: item 3");
	cr_assert_eq(c.tail_n, CAPTURE_TAIL_LINES);

	struct output_tail tail;

	capture_tail(&c, &tail);
	cr_assert_eq(tail.n, OUTPUT_TAIL_LINES);
	cr_assert_str_eq(tail.lines[0], "line 12", "only the last %d lines, oldest first", OUTPUT_TAIL_LINES);
	cr_assert_str_eq(tail.lines[17], "line 29");
	cr_assert_str_eq(tail.lines[18], "expiry: race hit: item 3");
	cr_assert_str_eq(tail.lines[19], "partial", "the unfinished last line too");
	cr_assert_str_eq(tail.matched_line, "expiry: race hit: item 3");
	capture_close(&c);
}

Test(runner, capture_without_match)
{
	struct capture c;
	int wfd;

	cr_assert_eq(capture_open(&c, "FAIL", false, &wfd), 0);
	feed(&c, wfd, "all good\n");
	close(wfd);
	capture_finish(&c);
	cr_assert_not(c.matched);
	capture_close(&c);
	cr_assert_neq(capture_open(&c, "(unclosed", false, &wfd), 0, "a bad regex is refused");
}

static struct fuzz_trace_event ev(__u64 ts, __u32 tid, __u16 kind, __u64 value, __u16 cpu)
{
	struct fuzz_trace_event e = { .ts_ns = ts, .value = value, .tid = tid, .tgid = 100,
				      .cpu = cpu, .kind = kind };

	snprintf(e.comm, sizeof(e.comm), "w\"orker");
	return e;
}

/* A file parsed by json-c's strict parser; NULL if it is not valid JSON. */
static struct json_object *parse_file(const char *path)
{
	struct json_tokener *tok = json_tokener_new();
	struct json_object *obj = NULL;
	char buf[1 << 16];
	FILE *f = fopen(path, "r");
	size_t n;

	cr_assert_not_null(f);
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT | JSON_TOKENER_VALIDATE_UTF8);
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	obj = json_tokener_parse_ex(tok, buf, (int)n);
	if (json_tokener_get_error(tok) != json_tokener_success) {
		json_object_put(obj);
		obj = NULL;
	}
	json_tokener_free(tok);
	return obj;
}

static struct json_object *at(struct json_object *o, const char *key)
{
	struct json_object *v = NULL;

	cr_assert(json_object_object_get_ex(o, key, &v), "no \"%s\" in %s", key, json_object_to_json_string(o));
	return v;
}

/* The first event named `name` in a trace. */
static struct json_object *event_named(struct json_object *trace, const char *name)
{
	struct json_object *evs = at(trace, "traceEvents");

	for (size_t i = 0; i < json_object_array_length(evs); i++) {
		struct json_object *e = json_object_array_get_idx(evs, i);

		if (!strcmp(json_object_get_string(at(e, "name")), name))
			return e;
	}
	cr_assert_fail("no event \"%s\"", name);
	return NULL;
}

static char *temp_path(void)
{
	static char path[64];
	int fd;

	snprintf(path, sizeof(path), "/tmp/scx_fuzz-json-XXXXXX");
	fd = mkstemp(path);
	cr_assert_geq(fd, 0);
	close(fd);
	return path;
}

Test(runner, trace_json)
{
	struct trace t = { 0 };
	char *path = temp_path();
	struct json_object *j, *e;

	struct fuzz_trace_event evs[] = {
		ev(1000000, 101, FUZZ_EV_RUN, 5000000, 2), ev(3000000, 101, FUZZ_EV_STOP, 2000000, 2),
		ev(3500000, 101, FUZZ_EV_DELAY, 700000, 2), ev(4300000, 101, FUZZ_EV_RELEASE, 100000, 3),
		ev(4300000, 102, FUZZ_EV_MIGRATE_NODE, 12, 3),
	};
	for (unsigned i = 0; i < sizeof(evs) / sizeof(evs[0]); i++)
		trace_add(&t, &evs[i]);
	cr_assert_eq(trace_write(&t, path, 42, "scx_fuzz --seed 42 -- ./x \"q\""), 0);
	trace_free(&t);
	j = parse_file(path);
	unlink(path);
	cr_assert_not_null(j, "the trace is valid JSON");
	e = event_named(j, "run");
	cr_assert_str_eq(json_object_get_string(at(e, "ph")), "X");
	cr_assert_float_eq(json_object_get_double(at(e, "ts")), 0.0, 1e-9);
	cr_assert_float_eq(json_object_get_double(at(e, "dur")), 2000.0, 1e-9, "a run closed by its stop");
	cr_assert_eq(json_object_get_int(at(at(e, "args"), "cpu")), 2);
	e = event_named(j, "delayed");
	cr_assert_float_eq(json_object_get_double(at(e, "ts")), 2500.0, 1e-9);
	e = event_named(j, "migrated (far node)");
	cr_assert_eq(json_object_get_int(at(at(e, "args"), "to_cpu")), 12);
	cr_assert_str_eq(json_object_get_string(at(e, "s")), "t", "a thread-scoped instant");
	e = event_named(j, "thread_name");
	cr_assert_str_eq(json_object_get_string(at(at(e, "args"), "name")), "w\"orker (101)");
	cr_assert_str_eq(json_object_get_string(at(at(j, "otherData"), "seed")), "42");
	cr_assert_str_eq(json_object_get_string(at(at(j, "otherData"), "reproduce")),
			 "scx_fuzz --seed 42 -- ./x \"q\"");
	json_object_put(j);
}

/* Every kind of event, with no point names to hand: still valid JSON, each kind present. */
Test(runner, trace_parses_with_every_kind_of_event)
{
	struct trace t = { 0 };
	char *path = temp_path();
	struct json_object *j;

	for (__u16 k = FUZZ_EV_RUN; k < FUZZ_NR_EV; k++) {
		struct fuzz_trace_event e = ev(1000 * (k + 1), 200 + (k & 1), k, 7, 1);

		trace_add(&t, &e);
	}
	cr_assert_eq(trace_write(&t, path, 1, "x"), 0);
	trace_free(&t);
	j = parse_file(path);
	unlink(path);
	cr_assert_not_null(j, "the trace is valid JSON");
	cr_assert_str_eq(json_object_get_string(at(at(event_named(j, "preempted at a point"), "args"), "point")),
			 "point 7");
	event_named(j, "turn (serialized)");
	cr_assert_eq(json_object_get_int(at(at(event_named(j, "ran out of turn (serialized)"), "args"),
					    "turn_holder_tid")), 7);
	event_named(j, "priority dropped (pct)");
	event_named(j, "preempted after a wake-up");
	json_object_put(j);
}

/* A campaign's --json: valid, and the fields docs/usage.md names. */
Test(runner, campaign_json_parses)
{
	char *argv[] = { "scx_fuzz", "--fail-on", "bad \"x\"\t\xff", "--", "./t", NULL };
	struct fuzz_opts o = { .argc = 5, .argv = argv, .cmd = argv + 4, .repeat = 2,
			       .fail_on = argv[2], .timeout_s = 2.5 };
	struct run runs[2] = { { .n = 1, .seed = 18446744073709551615ull, .duration_s = 0.25,
				 .result = RUN_PASS },
			       { .n = 2, .seed = 5, .duration_s = 1, .result = RUN_SIGNAL, .status = 139 } };
	struct campaign_result res = { .o = &o, .seed = 7, .runs = runs, .nr_runs = 2, .failures = 1,
				       .elapsed_s = 1.5, .kernel = "7.3.4", .nr_cpus = 4, .nr_llcs = 1,
				       .nr_nodes = 1 };
	char *path = temp_path();
	struct json_object *j, *r;

	runs[1].counters[FUZZ_STAT_DELAYED] = 12;
	cr_assert_eq(report_json(&res, path, 1), 0);
	j = parse_file(path);
	unlink(path);
	cr_assert_not_null(j, "the campaign JSON is valid, invalid UTF-8 in argv included");
	cr_assert_str_eq(json_object_get_string(at(at(j, "options"), "fail_on")), "bad \"x\"\t\xef\xbf\xbd");
	cr_assert_float_eq(json_object_get_double(at(at(j, "options"), "timeout_s")), 2.5, 1e-9);
	cr_assert(json_object_is_type(at(at(j, "options"), "until"), json_type_null));
	r = json_object_array_get_idx(at(j, "runs"), 0);
	cr_assert_eq(json_object_get_uint64(at(r, "seed")), 18446744073709551615ull, "64-bit seeds exact");
	cr_assert(json_object_is_type(at(r, "signal"), json_type_null));
	r = json_object_array_get_idx(at(j, "runs"), 1);
	cr_assert_eq(json_object_get_int(at(r, "signal")), 11);
	cr_assert(json_object_is_type(at(r, "exit_status"), json_type_null));
	cr_assert(json_object_get_boolean(at(r, "failed")));
	cr_assert_eq(json_object_get_int(at(at(r, "counters"), "delayed")), 12);
	cr_assert_str_eq(json_object_get_string(at(at(j, "summary"), "exit_meaning")), "failure-found");
	cr_assert_eq(json_object_get_int(at(at(j, "topology"), "cpus")), 4);
	json_object_put(j);
}

/* A command that forks and exits: its orphan comes to us (subreaper) and tree_kill ends it. */
Test(runner, tree_kill_reaches_orphans)
{
	int fds[2], status;
	pid_t child, orphan = 0;

	cr_assert_eq(tree_init(), 0);
	cr_assert_eq(pipe(fds), 0);
	child = fork();
	if (child == 0) {
		pid_t g = fork();

		if (g == 0) {
			for (;;)
				pause();
		}
		if (write(fds[1], &g, sizeof(g)) != sizeof(g))
			_exit(1);
		_exit(0);
	}
	cr_assert_eq(read(fds[0], &orphan, sizeof(orphan)), sizeof(orphan));
	cr_assert_eq(waitpid(child, &status, 0), child);
	usleep(20000);
	cr_assert_eq(kill(orphan, 0), 0, "the orphan still runs");
	tree_kill();
	cr_assert_eq(kill(orphan, 0), -1, "tree_kill ended the orphan");
	cr_assert_eq(tree_reap(child, &status, NULL), 0, "nothing left to reap");
}

/* json_text as the JSON text json-c writes for it. */
static const char *json_of(const char *s, size_t max)
{
	static char buf[256];
	struct json_object *str = json_text(s, max);

	snprintf(buf, sizeof(buf), "%s", json_object_to_json_string_ext(str, JSON_C_TO_STRING_PLAIN));
	json_object_put(str);
	return buf;
}

Test(runner, json_escaping)
{
	cr_assert_str_eq(json_of("a\"b\\c", 64), "\"a\\\"b\\\\c\"");
	cr_assert_str_eq(json_of("tab\there\n\x01", 64), "\"tab\\there\\n\\u0001\"");
	cr_assert_str_eq(json_of("caf\xc3\xa9 \xe2\x86\x92", 64), "\"caf\xc3\xa9 \xe2\x86\x92\"", "UTF-8 kept");
	cr_assert_str_eq(json_of("ab\xc3\xa9", 3), "\"ab\xef\xbf\xbd\"", "a character cut by the length limit");
	cr_assert_str_eq(json_of("x\xff\x80y", 64), "\"x\xef\xbf\xbd\xef\xbf\xbdy\"", "stray bytes");
	cr_assert_str_eq(json_of("abcdef", 3), "\"abc\"");
}

/* Run one --error-command check to its end; whether it reported a failure. */
static bool check_once(const char *cmd, double interval_s)
{
	struct errcheck e;
	int status;
	pid_t pid;

	errcheck_init(&e, cmd, interval_s, 0);
	errcheck_poll(&e, 0);
	cr_assert_eq(e.checks, 0, "not due before one interval");
	errcheck_poll(&e, interval_s);
	cr_assert_eq(e.checks, 1);
	pid = e.pid;
	if (interval_s < 1)	/* the clock jumps past the interval: the check is killed */
		errcheck_poll(&e, 2 * interval_s + 0.01);
	cr_assert_eq(waitpid(pid, &status, 0), pid);
	errcheck_reaped(&e, pid, status);
	cr_assert_eq(e.pid, -1, "the check is over");
	return e.fired;
}

Test(runner, error_command)
{
	cr_assert(check_once("exit 0", 5), "success of the command is a failure of the target");
	cr_assert_not(check_once("exit 1", 5));
	cr_assert_not(check_once("sleep 5; exit 0", 0.05), "a check that overran is killed: no error");
}
