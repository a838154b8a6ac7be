#!/bin/bash
# Everything at once on a 16-CPU, 4-node machine (tests/vm/guest/stress.sh) for SECONDS
# (default 120; make soak: 600). usage: t_stress.sh [KERNEL [SECONDS]]
. "$(dirname "$0")/testlib.sh"
secs=${2:-120}
TEST_TAG=${secs}s GUEST_ARGS=$secs vm_guest_test stress "${1:-newest}" 0 --cpus 16 --nodes 4 \
	--timeout $((secs * 4 + 300))
