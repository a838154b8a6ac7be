/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Checks before touching the kernel, each failing with one clear line, so a
 * new user learns what is wrong without reading a libbpf error.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>

#include "fuzz.h"
#include "preflight.h"

int check_root(uid_t euid)
{
	if (euid == 0)
		return 0;
	fprintf(stderr, "scx_fuzz: must run as root: loading a sched_ext scheduler needs "
		"CAP_SYS_ADMIN and CAP_BPF (try: sudo scx_fuzz ...)\n");
	return EXIT_SCHED;
}

/* Read one line of a sysfs file, without its newline. */
static int read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");

	if (!f)
		return -errno;
	if (!fgets(buf, len, f)) {
		fclose(f);
		return -EIO;
	}
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

/*
 * state: "enabled", "disabled", ...; ops: the attached scheduler's name, or ""
 * when none is attached or the kernel does not say (before 6.16 the file is
 * /sys/kernel/sched_ext/root/ops too, but may be absent while disabled).
 */
int read_sched_ext_state(const char *sysfs, char *state, size_t state_len, char *ops, size_t ops_len)
{
	char path[512];
	int err;

	snprintf(path, sizeof(path), "%s/kernel/sched_ext/state", sysfs);
	err = read_line(path, state, state_len);
	if (err)
		return err;
	snprintf(path, sizeof(path), "%s/kernel/sched_ext/root/ops", sysfs);
	if (read_line(path, ops, ops_len))
		ops[0] = '\0';
	return 0;
}

int check_sched_ext(const char *sysfs)
{
	char path[512], state[64], ops[256];
	struct utsname u;
	struct stat st;
	int err;

	snprintf(path, sizeof(path), "%s/kernel/sched_ext", sysfs);
	if (stat(path, &st) || !S_ISDIR(st.st_mode)) {
		if (uname(&u))
			strcpy(u.release, "?");
		fprintf(stderr, "scx_fuzz: this kernel (%s) has no sched_ext: %s is missing "
			"(needs CONFIG_SCHED_CLASS_EXT=y, Linux 6.12 or later)\n", u.release, path);
		return EXIT_SCHED;
	}
	err = read_sched_ext_state(sysfs, state, sizeof(state), ops, sizeof(ops));
	if (err) {
		fprintf(stderr, "scx_fuzz: cannot read %s/state: %s\n", path, strerror(-err));
		return EXIT_SCHED;
	}
	if (strcmp(state, "disabled")) {
		fprintf(stderr, "scx_fuzz: another sched_ext scheduler is attached: '%s' (state %s); "
			"stop it first\n", ops[0] ? ops : "unknown", state);
		return EXIT_SCHED;
	}
	return 0;
}
