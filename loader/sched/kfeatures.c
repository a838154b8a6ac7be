/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel features the BPF scheduler chooses between at load time
 * (bpf/common.bpf.h), read from the kernel's BTF so `-v` can say which
 * path this kernel takes, and docs/usage.md's table can be checked.
 */
#include <errno.h>
#include <string.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "kfeatures.h"

struct kernel_feature_probe {
	const char *name;	/* as printed */
	const char *btf_name;	/* the kfunc, or the struct holding the member */
	const char *member;	/* NULL for a kfunc */
};

static const struct kernel_feature_probe probes[NR_KERNEL_FEATURES] = {
	[KF_DSQ_INSERT_V2] = { "dsq_insert_v2", "scx_bpf_dsq_insert___v2" },
	[KF_DSQ_INSERT] = { "dsq_insert", "scx_bpf_dsq_insert" },
	[KF_DISPATCH] = { "dispatch", "scx_bpf_dispatch" },
	[KF_DSQ_MOVE_TO_LOCAL_V2] = { "dsq_move_to_local_v2", "scx_bpf_dsq_move_to_local___v2" },
	[KF_DSQ_MOVE_TO_LOCAL] = { "dsq_move_to_local", "scx_bpf_dsq_move_to_local" },
	[KF_CONSUME] = { "consume", "scx_bpf_consume" },
	[KF_DSQ_MOVE] = { "dsq_move", "scx_bpf_dsq_move" },
	[KF_DISPATCH_FROM_DSQ] = { "dispatch_from_dsq", "scx_bpf_dispatch_from_dsq" },
	[KF_MIGRATION_DISABLED] = { "migration_disabled", "task_struct", "migration_disabled" },
	[KF_EXIT_DUMP] = { "exit_dump", "scx_exit_info", "dump" },
};

const char *kernel_feature_name(enum kernel_feature f)
{
	return f < NR_KERNEL_FEATURES ? probes[f].name : "?";
}

static bool has_member(const struct btf *btf, const char *type, const char *member)
{
	__s32 id = btf__find_by_name_kind(btf, type, BTF_KIND_STRUCT);
	const struct btf_type *t = id > 0 ? btf__type_by_id(btf, id) : NULL;
	const struct btf_member *m;

	if (!t)
		return false;
	m = btf_members(t);
	for (int i = 0; i < btf_vlen(t); i++, m++)
		if (!strcmp(btf__name_by_offset(btf, m->name_off), member))
			return true;
	return false;
}

int probe_kernel_features(const char *btf_path, bool have[NR_KERNEL_FEATURES])
{
	struct btf *btf = btf_path ? btf__parse(btf_path, NULL) : btf__load_vmlinux_btf();
	int err = libbpf_get_error(btf);

	if (err)
		return err < 0 ? err : -EINVAL;
	for (int f = 0; f < NR_KERNEL_FEATURES; f++) {
		const struct kernel_feature_probe *pr = &probes[f];

		have[f] = pr->member ? has_member(btf, pr->btf_name, pr->member) :
			  btf__find_by_name_kind(btf, pr->btf_name, BTF_KIND_FUNC) > 0;
	}
	btf__free(btf);
	return 0;
}

void print_kernel_features(FILE *out, const bool have[NR_KERNEL_FEATURES])
{
	fputs("kernel features:", out);
	for (int f = 0; f < NR_KERNEL_FEATURES; f++)
		fprintf(out, " %s=%s", probes[f].name, have[f] ? "yes" : "no");
	fputc('\n', out);
}

void report_kernel_features(FILE *out)
{
	bool have[NR_KERNEL_FEATURES];
	int err = probe_kernel_features(NULL, have);

	fputs("scx_fuzz: ", out);
	if (err) {
		fprintf(out, "cannot read the kernel's BTF for its features: %s\n", strerror(-err));
		return;
	}
	print_kernel_features(out, have);
}
