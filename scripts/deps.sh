#!/bin/sh
# Install every build and test dependency of scx_fuzz with apt. Idempotent.
# Debian 12: newer libbpf/bpftool/hwloc come from bookworm-backports (per package),
# vmlinux.h (linux-bpf-dev) from trixie-backports. Nothing comes from trixie main.
set -eu

say() { echo "deps: $*"; }
die() { echo "deps: $*" >&2; exit 1; }

[ "$(id -u)" = 0 ] || die "must run as root (apt-get install)"
command -v apt-get >/dev/null || die "apt-get not found: only Debian/Ubuntu are supported"

. /etc/os-release
export DEBIAN_FRONTEND=noninteractive

COMMON="gcc libc6-dev make pkg-config libelf-dev libdw-dev libbz2-dev liblzma-dev libcapstone-dev libjson-c-dev zlib1g-dev libcriterion-dev \
qemu-system-x86 busybox-static cpio zstd xz-utils binutils rt-tests file python3 gnuplot-nox \
default-jdk-headless libinih-dev python3-prometheus-client systemd \
flex bison bc dwarves libssl-dev"

add_source() {  # name suites
	f=/etc/apt/sources.list.d/scx-fuzz-$1.sources
	[ -f "$f" ] && return 0
	say "adding $2 to apt sources ($f)"
	cat >"$f" <<SRC
Types: deb
URIs: http://deb.debian.org/debian
Suites: $2
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
}

# Backports default to priority 100, so nothing is upgraded from them unless asked for.
if [ "$ID" = debian ] && [ "${VERSION_CODENAME:-}" = bookworm ]; then
	add_source bookworm-backports bookworm-backports
	add_source trixie-backports trixie-backports
	apt-get update -q
	BP=bookworm-backports
	apt-get install -y -q --no-install-recommends $COMMON clang-19 llvm-19 \
		libbpf-dev/$BP libbpf1/$BP bpftool/$BP \
		libhwloc-dev/$BP libhwloc15/$BP hwloc/$BP libhwloc-plugins/$BP \
		linux-bpf-dev/trixie-backports
elif [ "$ID" = debian ]; then
	[ "${VERSION_CODENAME:-}" = trixie ] && add_source trixie-backports trixie-backports
	apt-get update -q
	apt-get install -y -q --no-install-recommends $COMMON clang llvm \
		libbpf-dev bpftool libhwloc-dev hwloc linux-bpf-dev
else
	# Ubuntu 24.04+: bpftool lives in linux-tools; vmlinux.h then comes from the test kernel.
	apt-get update -q
	apt-get install -y -q --no-install-recommends $COMMON clang llvm \
		libbpf-dev libhwloc-dev hwloc linux-tools-common linux-tools-generic || \
	apt-get install -y -q --no-install-recommends $COMMON clang llvm libbpf-dev libhwloc-dev hwloc
fi
say "ok"
