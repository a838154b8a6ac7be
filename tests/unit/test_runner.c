/* SPDX-License-Identifier: GPL-2.0 */
/* The runner's pure parts: run seeds, the reproduction line, output capture, trace JSON. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fuzz.h"
#include "capture.h"
#include "trace.h"

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
	format_repro(argc, argv, seed, 0, buf, sizeof(buf));
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

	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	capture_print_tail(&c, f, "| ");
	fclose(f);
	cr_assert(strstr(buf, "| line 29\n| expiry: race hit: item 3\n| partial\n"), "%s", buf);
	cr_assert_null(strstr(buf, "| line 10\n"), "only the last %d lines", CAPTURE_TAIL_LINES);
	free(buf);
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

Test(runner, trace_json)
{
	struct trace t = { 0 };
	char path[] = "/tmp/scx_fuzz-trace-XXXXXX", buf[8192];
	int fd = mkstemp(path);
	FILE *f;
	size_t n;

	cr_assert_geq(fd, 0);
	close(fd);
	struct fuzz_trace_event evs[] = {
		ev(1000000, 101, FUZZ_EV_RUN, 5000000, 2), ev(3000000, 101, FUZZ_EV_STOP, 2000000, 2),
		ev(3500000, 101, FUZZ_EV_DELAY, 700000, 2), ev(4300000, 101, FUZZ_EV_RELEASE, 100000, 3),
		ev(4300000, 102, FUZZ_EV_MIGRATE_NODE, 12, 3),
	};
	for (unsigned i = 0; i < sizeof(evs) / sizeof(evs[0]); i++)
		trace_add(&t, &evs[i]);
	cr_assert_eq(trace_write(&t, path, 42, "scx_fuzz --seed 42 -- ./x"), 0);
	f = fopen(path, "r");
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = 0;
	fclose(f);
	unlink(path);
	trace_free(&t);
	cr_assert(strstr(buf, "\"traceEvents\":["), "%s", buf);
	cr_assert(strstr(buf, "{\"name\":\"run\",\"cat\":\"scx_fuzz\",\"ph\":\"X\",\"ts\":0.000,\"pid\":100,"
			      "\"tid\":101,\"dur\":2000.000,\"args\":{\"cpu\":2,"), "%s", buf);
	cr_assert(strstr(buf, "\"name\":\"delayed\",\"cat\":\"scx_fuzz\",\"ph\":\"X\",\"ts\":2500.000"), "%s", buf);
	cr_assert(strstr(buf, "\"name\":\"migrated (far node)\""), "%s", buf);
	cr_assert(strstr(buf, "\"to_cpu\":12"), "%s", buf);
	cr_assert(strstr(buf, "\"name\":\"w\\\"orker (101)\""), "thread names escaped: %s", buf);
	cr_assert(strstr(buf, "\"seed\":\"42\""), "%s", buf);
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

/* json_chars into a string. */
static char *json_of(const char *s, size_t max)
{
	static char buf[256];
	FILE *f = fmemopen(buf, sizeof(buf), "w");

	cr_assert_not_null(f);
	json_chars(f, s, max);
	fclose(f);
	return buf;
}

Test(runner, json_escaping)
{
	cr_assert_str_eq(json_of("a\"b\\c", 64), "a\\\"b\\\\c");
	cr_assert_str_eq(json_of("tab\there\n", 64), "tab\\u0009here\\u000a");
	cr_assert_str_eq(json_of("caf\xc3\xa9 \xe2\x86\x92", 64), "caf\xc3\xa9 \xe2\x86\x92", "UTF-8 kept");
	cr_assert_str_eq(json_of("ab\xc3\xa9", 3), "ab\\ufffd", "a character cut by the length limit");
	cr_assert_str_eq(json_of("x\xff\x80y", 64), "x\\ufffd\\ufffdy", "stray bytes");
	cr_assert_str_eq(json_of("abcdef", 3), "abc");
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
