#!/bin/bash
# The seed's Java demo under the host's JDK, in a guest booted with the generic
# kernel flavour and the host's /usr over 9p (tests/vm/guest/java.sh).
# usage: t_java.sh [KERNEL [CAMPAIGNS [RUNS_DEFAULT]]]
. "$(dirname "$0")/testlib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
javac=$(readlink -f "$(command -v javac)") || { echo "not ok - [java] no javac (run 'make deps')"; exit 0; }
jar=$top/build/java/expiry.jar
[ -f "$jar" ] || { echo "not ok - [java] $jar missing (make java)"; exit 0; }
GUEST_ARGS="$(dirname "$javac")/java ${2:-1} ${3:-10}" \
	vm_guest_test java "${1:-newest}" 0 --host-usr --add "$jar" --cpus 4 --timeout 1500
