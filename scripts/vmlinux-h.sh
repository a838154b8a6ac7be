#!/bin/sh
# Generate vmlinux.h (kernel types + kfunc prototypes) for the BPF build.
# usage: scripts/vmlinux-h.sh OUT
# Source, in order: the running kernel's BTF if it has sched_ext; else the BTF
# inside the newest Debian test kernel (tests/vm/kernel); else Debian's
# linux-bpf-dev vmlinux.h if it has sched_ext.
set -eu
out=$1
here=$(cd "$(dirname "$0")/.." && pwd)
die() { echo "vmlinux-h: $*" >&2; exit 1; }
BPFTOOL=${BPFTOOL:-bpftool}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

has_scx() { grep -q 'struct sched_ext_ops {' "$1"; }

from_btf() {  # file-with-BTF
	"$BPFTOOL" btf dump file "$1" format c >"$tmp/vmlinux.h" 2>"$tmp/err" || return 1
	has_scx "$tmp/vmlinux.h"
}

# The decompressed kernel ELF carries .BTF; find the payload's compression magic.
extract_elf() {  # vmlinuz elf
	for m in '\x28\xb5\x2f\xfd:zstd -dcq' '\xfd\x37\x7a\x58\x5a\x00:xz -dcq' '\x1f\x8b\x08:gzip -dcq'; do
		magic=${m%%:*}; cmd=${m#*:}
		for off in $(LC_ALL=C grep -obUaP "$magic" "$1" | cut -d: -f1 | head -n 5); do
			tail -c +$((off + 1)) "$1" | $cmd >"$2" 2>/dev/null || true   # trailing bytes make it exit 1
			if [ "$(head -c 4 "$2" | od -An -tx1 | tr -d ' ')" = 7f454c46 ]; then return 0; fi
		done
	done
	return 1
}

if [ -r /sys/kernel/btf/vmlinux ] && from_btf /sys/kernel/btf/vmlinux; then
	src="running kernel"
elif vmlinuz=$("$here/tests/vm/kernel" newest) && extract_elf "$vmlinuz" "$tmp/vmlinux" &&
	from_btf "$tmp/vmlinux"; then
	src="test kernel $vmlinuz"
else
	hdr=$(ls /usr/include/*/linux/bpf/vmlinux.h 2>/dev/null | head -n1 || true)
	[ -n "$hdr" ] && has_scx "$hdr" || die "no kernel BTF with sched_ext found (run 'make deps')"
	cp "$hdr" "$tmp/vmlinux.h"
	src="$hdr"
fi
mv "$tmp/vmlinux.h" "$out"
echo "vmlinux-h: $out from $src"
