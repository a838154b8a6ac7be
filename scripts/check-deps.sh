#!/bin/sh
# Succeeds when every build and test dependency is present; otherwise names
# the first missing one. `make` runs it once and calls scripts/deps.sh if needed.
missing() { echo "check-deps: missing $1" >&2; exit 1; }
{ command -v clang-19 || command -v clang; } >/dev/null || missing clang
command -v bpftool >/dev/null || [ -x /usr/sbin/bpftool ] || missing bpftool
bpftool_ver=$( (bpftool version 2>/dev/null || /usr/sbin/bpftool version) | sed -n 's/.*v\([0-9]*\.[0-9]*\).*/\1/p' | head -n1)
[ "$(printf '%s\n7.5\n' "$bpftool_ver" | sort -V | head -n1)" = 7.5 ] || missing "bpftool >= 7.5 (have $bpftool_ver)"
pkg-config --atleast-version=1.4 libbpf 2>/dev/null || missing "libbpf >= 1.4"
pkg-config --exists libelf libdw capstone json-c zlib criterion hwloc inih 2>/dev/null ||
	missing "libelf/libdw/capstone/json-c/zlib/criterion/hwloc/inih dev packages"
# scx_fuzz links statically: libdw's compression libraries as archives too
for l in bz2 lzma; do [ "$(gcc -print-file-name=lib$l.a)" != "lib$l.a" ] || missing "lib$l.a (lib$l-dev)"; done
for t in qemu-system-x86_64 cpio zstd xz strings hackbench setpriv python3 gnuplot javac jar flex bison bc pahole; do command -v $t >/dev/null || missing $t; done
/usr/bin/python3 -c 'import prometheus_client' 2>/dev/null || missing python3-prometheus-client
command -v systemd-analyze >/dev/null || missing "systemd (systemd-analyze)"
[ -x /bin/busybox ] && file -L /bin/busybox | grep -q 'statically linked' || missing busybox-static
exit 0
