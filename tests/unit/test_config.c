/* SPDX-License-Identifier: GPL-2.0 */
/* serve's INI file: defaults, every key checked, errors that name the line, flags as the CLI's. */
#include <criterion/criterion.h>
#include <criterion/redirect.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"

static char path[64];
static struct serve_config cfg;
static char err[512];

static int load(const char *text)
{
	FILE *f;

	strcpy(path, "/tmp/scx-fuzz-config-XXXXXX");
	f = fdopen(mkstemp(path), "w");
	cr_assert_not_null(f);
	fputs(text, f);
	fclose(f);
	err[0] = 0;
	return config_load(path, &cfg, err, sizeof(err));
}

static void done(void)
{
	config_free(&cfg);
	unlink(path);
}

TestSuite(config, .fini = done);

/* `text` is refused, the error holding `why`. */
static void refused(const char *text, const char *why)
{
	cr_assert_eq(load(text), EXIT_USAGE, "%s", text);
	cr_assert(strstr(err, why), "%s", err);
	config_free(&cfg);
	unlink(path);
}

Test(config, defaults)
{
	cr_assert_eq(load("[target]\ncgroup = system.slice/web.service\n"), 0, "%s", err);
	cr_assert_str_eq(cfg.cgroup, "system.slice/web.service");
	cr_assert_float_eq(cfg.cpu_pressure, 40, 1e-9);
	cr_assert_float_eq(cfg.resume_below, 20, 1e-9);
	cr_assert_eq(cfg.resume_step_s, 10);
	cr_assert_eq(cfg.interval_s, 15);
	cr_assert_eq(cfg.flight_events, 4096);
	cr_assert_str_eq(cfg.flight_dir, "/var/lib/scx_fuzz");
	cr_assert_null(cfg.metrics);
	cr_assert_not(cfg.pressure_of_cgroup);
}

Test(config, every_section)
{
	cr_assert_eq(load("; comment\n[target]\ncomm = worker*\nexclude_comm = gc*, jit\n"
			  "error_command = test -e /tmp/x\nerror_check_interval_s = 2\n"
			  "[fuzz]\nintensity = medium\nbudget = 2\nseed = 7\n"
			  "[backoff]\ncpu_pressure = 60%\nresume_below = 10\nresume_step_s = 5\n"
			  "[output]\nmetrics = /tmp/m.prom\njson = /tmp/m.json\ninterval_s = 2\nflight_events = 100\n"), 0, "%s", err);
	cr_assert_str_eq(cfg.json, "/tmp/m.json");
	cr_assert_str_eq(cfg.comm, "worker*");
	cr_assert_float_eq(cfg.cpu_pressure, 60, 1e-9);
	cr_assert_eq(cfg.flight_events, 100);
	cr_assert_str_eq(cfg.metrics, "/tmp/m.prom");
	cr_assert_str_eq(cfg.error_command, "test -e /tmp/x");
	cr_assert_eq(cfg.error_check_interval_s, 2);
}

Test(config, unknown_key_names_file_and_line)
{
	cr_assert_eq(load("[target]\ncgroup = a\n[fuzz]\nintensty = low\n"), EXIT_USAGE);
	cr_assert(strstr(err, ":4: unknown key 'intensty' in [fuzz]"), "%s", err);
}

Test(config, bad_values)
{
	refused("[target]\ncgroup = a\n[backoff]\ncpu_pressure = 140\n", ":4: bad value '140' for cpu_pressure");
	refused("[target]\ncgroup = a\n[backoff]\npressure = node\n", "system or cgroup");
	refused("[target]\ncgroup = a\n[output]\ninterval_s = 1.5\n", "whole number");
}

Test(config, needs_a_target_and_sane_thresholds)
{
	cr_assert_eq(load("[fuzz]\nintensity = low\n"), EXIT_USAGE);
	cr_assert(strstr(err, "needs cgroup or comm"), "%s", err);
	config_free(&cfg);
	cr_assert_eq(load("[target]\ncomm = x\n[backoff]\ncpu_pressure = 10\nresume_below = 30\n"),
		     EXIT_USAGE);
	cr_assert(strstr(err, "resume_below"), "%s", err);
	config_free(&cfg);
	cr_assert_eq(load("[target]\ncomm = x\n[backoff]\npressure = cgroup\n"), EXIT_USAGE);
}

Test(config, missing_file)
{
	cr_assert_eq(config_load("/nonexistent/serve.conf", &cfg, err, sizeof(err)), EXIT_USAGE);
	cr_assert(strstr(err, "cannot read /nonexistent/serve.conf"), "%s", err);
}

Test(config, becomes_the_usual_flags)
{
	struct fuzz_opts o;

	cr_assert_eq(load("[target]\ncgroup = system.slice/x.service\nexclude_comm = gc*, jit\n"
			  "[fuzz]\nbudget = 2\nseed = 42\n"), 0, "%s", err);
	cr_assert_eq(config_to_opts(&cfg, &o, stderr), 0);
	cr_assert_str_eq(o.cgroup, "system.slice/x.service");
	cr_assert_str_eq(o.intensity, "low", "serve's default intensity is low");
	cr_assert_eq(o.explicit_knobs.budget_ppm, 20000);
	cr_assert_eq(o.seed, 42);
	cr_assert_eq(o.nr_excludes, 2);
	cr_assert(o.cgroup_may_be_absent);
	cr_assert_eq(o.flight_events, 4096);
}

Test(config, bad_flag_values_are_the_clis_errors, .init = cr_redirect_stderr)
{
	struct fuzz_opts o;
	FILE *errs = tmpfile();

	cr_assert_eq(load("[target]\ncomm = x\n[fuzz]\nintensity = wild\n"), 0, "%s", err);
	cr_assert_eq(config_to_opts(&cfg, &o, errs), EXIT_USAGE);
	fclose(errs);
}

Test(config, nan_is_no_percentage)
{
	refused("[target]\ncgroup = a\n[backoff]\ncpu_pressure = nan\n", ":4: bad value 'nan'");
}

Test(config, the_first_error_is_reported)
{
	refused("[target]\ncgroup = a\nbad = 1\n[fuzz]\nworse = 2\n", ":3: unknown key 'bad' in [target]");
}

Test(config, cgroup_names_whose_depth_is_known)
{
	cr_assert_eq(load("[target]\ncgroup = /sys/fs/cgroup/system.slice/x.service\n"), 0, "%s", err);
	config_free(&cfg);
	/* a path from the cgroup root, as systemd prints it, is not a path on disk */
	refused("[target]\ncgroup = /system.slice/x.service\n", "relative to /sys/fs/cgroup");
	refused("[target]\ncgroup = system.slice/../x.service\n", "");
	refused("[target]\ncgroup = ./x.service\n", "");
}

Test(config, flight_dir_not_empty)
{
	refused("[target]\ncomm = x\n[output]\nflight_dir =\n", "flight_dir must not be empty");
}

Test(config, too_many_excludes, .init = cr_redirect_stderr)
{
	struct fuzz_opts o;
	char text[1024] = "[target]\ncomm = x\nexclude_comm = a";

	/* blanks separate names as commas do: 40 names, one comma */
	strcat(text, ", b");
	for (int i = 0; i < 38; i++)
		strcat(text, " c");
	strcat(text, "\n");
	cr_assert_eq(load(text), 0, "%s", err);
	cr_assert_eq(config_to_opts(&cfg, &o, stderr), EXIT_USAGE);
}

Test(config, as_many_excludes_as_the_cli_takes)
{
	struct fuzz_opts o;
	char text[1024] = "[target]\ncomm = x\nexclude_comm = a";

	for (int i = 1; i < FUZZ_MAX_EXCLUDES; i++)
		strcat(text, ",b");
	strcat(text, "\n");
	cr_assert_eq(load(text), 0, "%s", err);
	cr_assert_eq(config_to_opts(&cfg, &o, stderr), 0);
	cr_assert_eq(o.nr_excludes, FUZZ_MAX_EXCLUDES);
}
