/* SPDX-License-Identifier: GPL-2.0 */
/* Command-line parsing: good flags are taken, bad ones give one line and exit 2. */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <criterion/redirect.h>
#include <stdio.h>

#include "fuzz.h"
#include "scx_fuzz.h"
#include "opts.h"

static int parse(struct fuzz_opts *o, bool *done, char **argv)
{
	int argc = 0;

	while (argv[argc])
		argc++;
	return parse_opts(argc, argv, o, done, stdout);
}

Test(opts, defaults_and_command)
{
	char *argv[] = { "scx_fuzz", "--", "hackbench", "-g", "2", NULL };
	struct fuzz_opts o;
	bool done;

	cr_assert_eq(parse(&o, &done, argv), 0);
	cr_assert_not(done);
	cr_assert_eq(o.slice_us, 5000);
	cr_assert_eq(o.stats_interval_s, 0);
	cr_assert_str_eq(o.cmd[0], "hackbench");
	cr_assert_str_eq(o.cmd[2], "2", "CMD's own flags must not be parsed as ours");
	cr_assert_null(o.cmd[3]);
}

Test(opts, no_command_means_run_until_signal)
{
	char *argv[] = { "scx_fuzz", "-s", "200", "--stats", "2", NULL };
	struct fuzz_opts o;
	bool done;

	cr_assert_eq(parse(&o, &done, argv), 0);
	cr_assert_null(o.cmd);
	cr_assert_eq(o.slice_us, 200);
	cr_assert_eq(o.stats_interval_s, 2);
}

Test(opts, command_without_dashes_stops_option_parsing)
{
	char *argv[] = { "scx_fuzz", "ls", "-l", NULL };
	struct fuzz_opts o;
	bool done;

	cr_assert_eq(parse(&o, &done, argv), 0);
	cr_assert_str_eq(o.cmd[0], "ls");
	cr_assert_str_eq(o.cmd[1], "-l");
}

Test(opts, hidden_test_faults, .init = cr_redirect_stderr)
{
	char *argv[] = { "scx_fuzz", "--test-fault", "bpf-error", NULL };
	char *bad[] = { "scx_fuzz", "--test-fault", "meteor", NULL };
	struct fuzz_opts o;
	bool done;

	cr_assert_eq(parse(&o, &done, argv), 0);
	cr_assert_eq(o.test_fault, FUZZ_FAULT_BPF_ERROR);
	cr_assert_eq(parse(&o, &done, bad), EXIT_USAGE);
}

/* Arrays, not pointers: Criterion may run each case in a fresh process image. */
struct bad_case {
	char flag[16], value[32], message[80];
};

ParameterizedTestParameters(opts, bad_values)
{
	static struct bad_case cases[] = {
		{ "--slice", "abc", "scx_fuzz: invalid --slice (microseconds, 50..1000000): 'abc'" },
		{ "--slice", "-5", "scx_fuzz: invalid --slice" },
		{ "--slice", "10", "scx_fuzz: invalid --slice" },
		{ "--slice", "99999999999999999999", "scx_fuzz: invalid --slice" },
		{ "--stats", "0", "scx_fuzz: invalid --stats (seconds, 1..3600): '0'" },
		{ "--stats", "1x", "scx_fuzz: invalid --stats" },
		{ "--bogus", "", "scx_fuzz: invalid option: '--bogus'" },
	};
	return cr_make_param_array(struct bad_case, cases, sizeof(cases) / sizeof(cases[0]));
}

ParameterizedTest(struct bad_case *c, opts, bad_values, .init = cr_redirect_stderr)
{
	char *argv[] = { "scx_fuzz", c->flag, c->value, "--", "true", NULL };
	struct fuzz_opts o;
	bool done;
	char buf[512] = "";

	if (!c->value[0]) {
		argv[2] = "--";
		argv[3] = "true";
		argv[4] = NULL;
	}
	cr_assert_eq(parse(&o, &done, argv), EXIT_USAGE);
	fflush(stderr);
	fread(buf, 1, sizeof(buf) - 1, cr_get_redirected_stderr());
	cr_assert(strstr(buf, c->message), "got: %s", buf);
	cr_assert_eq(strchr(buf, '\n'), buf + strlen(buf) - 1, "one line only: %s", buf);
}

Test(opts, help_and_version_are_done, .init = cr_redirect_stdout)
{
	char *help[] = { "scx_fuzz", "--help", NULL };
	char *version[] = { "scx_fuzz", "-V", NULL };
	struct fuzz_opts o;
	bool done;

	cr_assert_eq(parse(&o, &done, help), 0);
	cr_assert(done);
	cr_assert_eq(parse(&o, &done, version), 0);
	cr_assert(done);
	fflush(stdout);
	cr_assert_stdout_neq_str("");
}
