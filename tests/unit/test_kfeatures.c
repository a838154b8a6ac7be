/* SPDX-License-Identifier: GPL-2.0 */
/* Kernel features read from BTF: kfuncs by name, fields by struct member. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <unistd.h>
#include <bpf/btf.h>

#include "kfeatures.h"

/* A raw BTF file with the given functions and one struct of the given members. */
static void write_btf(char *path, const char **funcs, const char *st, const char **members)
{
	struct btf *btf = btf__new_empty();
	int fd, i, intid, proto, sid;
	const void *raw;
	__u32 size;

	cr_assert_not_null(btf);
	intid = btf__add_int(btf, "int", 4, BTF_INT_SIGNED);
	proto = btf__add_func_proto(btf, intid);
	cr_assert(intid > 0 && proto > 0);
	for (i = 0; funcs[i]; i++)
		cr_assert(btf__add_func(btf, funcs[i], BTF_FUNC_GLOBAL, proto) > 0);
	sid = btf__add_struct(btf, st, 0);
	cr_assert(sid > 0);
	for (i = 0; members[i]; i++)
		cr_assert_eq(btf__add_field(btf, members[i], intid, 0, 0), 0);
	raw = btf__raw_data(btf, &size);
	cr_assert_not_null(raw);
	fd = mkstemp(path);
	cr_assert(fd >= 0);
	cr_assert_eq(write(fd, raw, size), (ssize_t)size);
	close(fd);
	btf__free(btf);
}

Test(kfeatures, kfuncs_and_members_found_by_name)
{
	const char *funcs[] = { "scx_bpf_dispatch", "scx_bpf_consume", "scx_bpf_dsq_insert_vtime", NULL };
	const char *members[] = { "pid", "migration_disabled", NULL };
	char path[] = "/tmp/kfeatures-XXXXXX";
	bool have[NR_KERNEL_FEATURES];

	write_btf(path, funcs, "task_struct", members);
	cr_assert_eq(probe_kernel_features(path, have), 0);
	unlink(path);
	cr_assert(have[KF_DISPATCH]);
	cr_assert(have[KF_CONSUME]);
	cr_assert_not(have[KF_DSQ_INSERT], "a longer name is not a match");
	cr_assert_not(have[KF_DSQ_INSERT_V2]);
	cr_assert(have[KF_MIGRATION_DISABLED]);
	cr_assert_not(have[KF_EXIT_DUMP], "no scx_exit_info in this BTF");
}

Test(kfeatures, missing_file_is_an_error)
{
	bool have[NR_KERNEL_FEATURES];

	cr_assert_lt(probe_kernel_features("/nonexistent/btf", have), 0);
}

Test(kfeatures, printed_on_one_line)
{
	bool have[NR_KERNEL_FEATURES] = { [KF_DSQ_MOVE] = true };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	print_kernel_features(f, have);
	fclose(f);
	cr_assert(strstr(buf, "kernel features: dsq_insert_v2=no "));
	cr_assert(strstr(buf, " dsq_move=yes "));
	cr_assert_eq(strchr(buf, '\n'), buf + len - 1);
	free(buf);
}
