/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What to fuzz, from --pid, --cgroup and --comm (the CMD tree is registered
 * once the gated child exists). Unknown targets are usage errors (exit 2).
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>

#include "fuzz.h"

#define CGROUP2_MAGIC 0x63677270
#define CGROUP2_ROOT "/sys/fs/cgroup"

/* The kernfs id (inode) and depth below the cgroup2 root of a cgroup directory. */
int cgroup_resolve(const char *path, __u64 *id, __u32 *level, char *err, size_t err_len)
{
	char full[PATH_MAX], real[PATH_MAX];
	struct statfs fs;
	struct stat st;
	const char *rest;

	snprintf(full, sizeof(full), "%s%s%s", path[0] == '/' ? "" : CGROUP2_ROOT,
		 path[0] == '/' ? "" : "/", path);
	if (!realpath(full, real) || stat(real, &st) || !S_ISDIR(st.st_mode)) {
		snprintf(err, err_len, "no cgroup '%s' (%s)", path, strerror(errno ? errno : ENOTDIR));
		return EXIT_USAGE;
	}
	if (statfs(real, &fs) || fs.f_type != CGROUP2_MAGIC ||
	    strncmp(real, CGROUP2_ROOT, strlen(CGROUP2_ROOT))) {
		snprintf(err, err_len, "'%s' is not a cgroup v2 directory under %s", path, CGROUP2_ROOT);
		return EXIT_USAGE;
	}
	*level = 0;
	for (rest = real + strlen(CGROUP2_ROOT); *rest; rest++)
		*level += *rest == '/';
	*id = st.st_ino;
	return 0;
}

/* Fill the targeting part of the knobs from the options; 0 or EXIT_USAGE with `err`. */
int targets_resolve(const struct fuzz_opts *o, struct fuzz_knobs *k, char *err, size_t err_len)
{
	size_t n;
	int r;

	k->target_by = 0;
	if (o->cmd)
		k->target_by |= FUZZ_TARGET_TREE;
	if (o->target_pid) {
		if (kill(o->target_pid, 0) && errno == ESRCH) {
			snprintf(err, err_len, "no process with pid %d", (int)o->target_pid);
			return EXIT_USAGE;
		}
		k->target_by |= FUZZ_TARGET_TREE;
	}
	if (o->cgroup) {
		if ((r = cgroup_resolve(o->cgroup, &k->cgroup_id, &k->cgroup_level, err, err_len)))
			return r;
		k->target_by |= FUZZ_TARGET_CGROUP;
	}
	if (o->comm) {
		n = strlen(o->comm);
		k->comm_prefix = o->comm[n - 1] == '*';
		memset(k->comm, 0, sizeof(k->comm));
		memcpy(k->comm, o->comm, n - k->comm_prefix);
		k->target_by |= FUZZ_TARGET_COMM;
	}
	return 0;
}
