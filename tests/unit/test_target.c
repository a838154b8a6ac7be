/* SPDX-License-Identifier: GPL-2.0 */
/* The gated target: it must not run before release, and its status must survive. */
#include <criterion/criterion.h>
#include <criterion/redirect.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>
#include <sys/wait.h>

#include "fuzz.h"
#include "target.h"
#include "targets.h"
#include "tree.h"

static int run_to_end(char **argv)
{
	struct target t;
	int status;

	cr_assert_eq(target_spawn(&t, argv, -1), 0);
	cr_assert_eq(target_release(&t), 0);
	cr_assert_eq(target_wait(&t, true, &status), 1);
	return exit_status_of(status);
}

Test(target, exit_status_passes_through)
{
	char *argv[] = { "sh", "-c", "exit 42", NULL };

	cr_assert_eq(run_to_end(argv), 42);
}

Test(target, signal_gives_128_plus_signo)
{
	char *argv[] = { "sh", "-c", "kill -TERM $$", NULL };

	cr_assert_eq(run_to_end(argv), 128 + SIGTERM);
}

Test(target, does_not_run_before_release)
{
	char marker[] = "/tmp/scx_fuzz-gate.XXXXXX";
	int fd = mkstemp(marker), status;
	char script[128];
	struct target t;

	cr_assert_geq(fd, 0);
	close(fd);
	unlink(marker);
	snprintf(script, sizeof(script), "touch %s", marker);
	char *argv[] = { "sh", "-c", script, NULL };
	cr_assert_eq(target_spawn(&t, argv, -1), 0);
	usleep(200 * 1000);
	cr_assert_neq(access(marker, F_OK), 0, "the target ran before the gate opened");
	cr_assert_eq(target_wait(&t, false, &status), 0, "the target must still be waiting");
	cr_assert_eq(target_release(&t), 0);
	cr_assert_eq(target_wait(&t, true, &status), 1);
	cr_assert_eq(access(marker, F_OK), 0);
	unlink(marker);
}

Test(target, exec_failure_is_reported)
{
	char *argv[] = { "/nonexistent/prog", NULL };
	struct target t;
	int status;

	cr_assert_eq(target_spawn(&t, argv, -1), 0);
	cr_assert_eq(target_release(&t), -ENOENT);
	cr_assert_eq(target_wait(&t, true, &status), 1);
	cr_assert_eq(exit_status_of(status), EXIT_NOT_FOUND);
}

Test(target, resolve_cmd_finds_and_refuses, .init = cr_redirect_stderr)
{
	char path[PATH_MAX];

	cr_assert_eq(resolve_cmd("sh", path, sizeof(path)), 0);
	cr_assert_eq(access(path, X_OK), 0);
	cr_assert_eq(resolve_cmd("no-such-command-xyz", path, sizeof(path)), EXIT_NOT_FOUND);
	cr_assert_eq(resolve_cmd("/etc/passwd", path, sizeof(path)), EXIT_NOT_EXEC);
	cr_assert_eq(resolve_cmd("/tmp", path, sizeof(path)), EXIT_NOT_EXEC);
	fflush(stderr);
	cr_assert_stderr_eq_str("scx_fuzz: cannot run 'no-such-command-xyz': command not found\n"
				"scx_fuzz: cannot run '/etc/passwd': Permission denied\n"
				"scx_fuzz: cannot run '/tmp': Is a directory\n");
}

/* serve waits for a cgroup that is not there yet: its depth comes from the path alone. */
Test(targets, cgroup_level_of_a_path)
{
	cr_assert_eq(cgroup_level_of("system.slice/web.service"), 2);
	cr_assert_eq(cgroup_level_of("/sys/fs/cgroup/system.slice/web.service/"), 2);
	cr_assert_eq(cgroup_level_of("a//b///c"), 3);
	cr_assert_eq(cgroup_level_of("top"), 1);
}
