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
#include "targets.h"

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

/* The depth below the cgroup2 root that `path` names, without looking it up (it may not exist yet). */
__u32 cgroup_level_of(const char *path)
{
	__u32 level = 0;
	const char *c;

	if (!strncmp(path, CGROUP2_ROOT "/", strlen(CGROUP2_ROOT) + 1))
		path += strlen(CGROUP2_ROOT);
	for (c = path; *c; c++)
		if (*c != '/' && (c == path || c[-1] == '/'))
			level++;
	return level;
}

/* "NAME" or "NAME*" into a NUL-padded comm pattern. */
static void comm_pattern(const char *arg, char out[FUZZ_COMM_LEN], bool *prefix)
{
	size_t n = strlen(arg);

	*prefix = n && arg[n - 1] == '*';
	memset(out, 0, FUZZ_COMM_LEN);
	memcpy(out, arg, n - *prefix < FUZZ_COMM_LEN ? n - *prefix : FUZZ_COMM_LEN - 1);
}

/*
 * The JVM's own threads (HotSpot, JDK 17-21; Linux keeps 15 characters of
 * a name): JIT compilers, GC workers, the VM thread and its helpers. Threads
 * that run Java code (Reference Handler, Finalizer, Common-Cleaner) stay fuzzed.
 */
static const char *const jvm_threads[] = {
	"C1 *", "C2 *", "G1 *", "GC Thread*", "VM *", "JVMCI*", "Monitor Deflati*",
	"Service Thread", "Notification Th*", "Signal Dispatch*", "Attach Listener",
	"Sweeper thread",
};

/* --exclude-comm patterns, after --java's: 0, or EXIT_USAGE with `err`. */
static int excludes_resolve(const struct fuzz_opts *o, struct fuzz_knobs *k, char *err, size_t err_len)
{
	size_t nr_java = o->java ? sizeof(jvm_threads) / sizeof(jvm_threads[0]) : 0;
	bool prefix;

	k->nr_excludes = 0;
	k->exclude_prefix = 0;
	if (nr_java + o->nr_excludes > FUZZ_MAX_EXCLUDES) {
		snprintf(err, err_len, "too many --exclude-comm patterns with --java (at most %zu)",
			 FUZZ_MAX_EXCLUDES - nr_java);
		return EXIT_USAGE;
	}
	for (size_t i = 0; i < nr_java + o->nr_excludes; i++) {
		comm_pattern(i < nr_java ? jvm_threads[i] : o->excludes[i - nr_java],
			     k->exclude[k->nr_excludes], &prefix);
		k->exclude_prefix |= (__u32)prefix << k->nr_excludes;
		k->nr_excludes++;
	}
	return 0;
}

/* Fill the targeting part of the knobs from the options; 0 or EXIT_USAGE with `err`. */
int targets_resolve(const struct fuzz_opts *o, struct fuzz_knobs *k, char *err, size_t err_len)
{
	bool prefix;
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
		r = cgroup_resolve(o->cgroup, &k->cgroup_id, &k->cgroup_level, err, err_len);
		if (r && o->cgroup_may_be_absent && !strncmp(err, "no cgroup", 9)) {
			k->cgroup_id = 0;	/* fuzzed from when it appears */
			k->cgroup_level = cgroup_level_of(o->cgroup);
			r = 0;
		}
		if (r)
			return r;
		k->target_by |= FUZZ_TARGET_CGROUP;
	}
	if (o->comm) {
		comm_pattern(o->comm, k->comm, &prefix);
		k->comm_prefix = prefix;
		k->target_by |= FUZZ_TARGET_COMM;
	}
	return excludes_resolve(o, k, err, err_len);
}
