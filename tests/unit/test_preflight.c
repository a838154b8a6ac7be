/* SPDX-License-Identifier: GPL-2.0 */
/* Preflight checks against fake sysfs trees: each problem gives one clear line. */
#include <criterion/criterion.h>
#include <criterion/redirect.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "fuzz.h"
#include "preflight.h"

static char root[64];

/* Create root/REL (a directory when content is NULL, else a file holding content). */
static void put(const char *rel, const char *content)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	if (!content) {
		cr_assert_eq(mkdir(path, 0755), 0, "mkdir %s", path);
		return;
	}
	f = fopen(path, "w");
	cr_assert_not_null(f, "create %s", path);
	fprintf(f, "%s\n", content);
	fclose(f);
}

static void make_sysfs(const char *state, const char *ops)
{
	strcpy(root, "/tmp/scx_fuzz-sysfs.XXXXXX");
	cr_assert_not_null(mkdtemp(root));
	if (!state)
		return;
	put("kernel", NULL);
	put("kernel/sched_ext", NULL);
	put("kernel/sched_ext/state", state);
	if (ops) {
		put("kernel/sched_ext/root", NULL);
		put("kernel/sched_ext/root/ops", ops);
	}
}

static void cleanup(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	system(cmd);
}

static char *stderr_text(void)
{
	static char buf[1024];
	size_t n;

	fflush(stderr);
	n = fread(buf, 1, sizeof(buf) - 1, cr_get_redirected_stderr());
	buf[n] = '\0';
	return buf;
}

Test(preflight, not_root, .init = cr_redirect_stderr)
{
	cr_assert_eq(check_root(1000), EXIT_SCHED);
	cr_assert(strstr(stderr_text(), "scx_fuzz: must run as root"));
	cr_assert_eq(check_root(0), 0);
}

Test(preflight, kernel_without_sched_ext, .init = cr_redirect_stderr, .fini = cleanup)
{
	make_sysfs(NULL, NULL);
	cr_assert_eq(check_sched_ext(root), EXIT_SCHED);
	cr_assert(strstr(stderr_text(), "has no sched_ext"));
}

Test(preflight, disabled_is_ready, .fini = cleanup)
{
	make_sysfs("disabled", NULL);
	cr_assert_eq(check_sched_ext(root), 0);
}

Test(preflight, another_scheduler_is_named, .init = cr_redirect_stderr, .fini = cleanup)
{
	make_sysfs("enabled", "scx_rusty");
	cr_assert_eq(check_sched_ext(root), EXIT_SCHED);
	cr_assert(strstr(stderr_text(),
			 "another sched_ext scheduler is attached: 'scx_rusty' (state enabled)"));
}

Test(preflight, scheduler_still_disabling_counts_as_attached, .init = cr_redirect_stderr,
     .fini = cleanup)
{
	make_sysfs("disabling", NULL);
	cr_assert_eq(check_sched_ext(root), EXIT_SCHED);
	cr_assert(strstr(stderr_text(), "'unknown' (state disabling)"));
}

Test(preflight, read_state_and_ops, .fini = cleanup)
{
	char state[32], ops[64];

	make_sysfs("enabled", "scx_fuzz");
	cr_assert_eq(read_sched_ext_state(root, state, sizeof(state), ops, sizeof(ops)), 0);
	cr_assert_str_eq(state, "enabled");
	cr_assert_str_eq(ops, "scx_fuzz");
}
