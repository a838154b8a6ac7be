#!/bin/bash
# The scalable base under a 60 s mixed load on big emulated machines.
# usage: t_base.sh [KERNEL] [CPUS NODES [SECONDS]]
. "$(dirname "$0")/testlib.sh"
cpus=${2:-32} nodes=${3:-4}
TEST_TAG=${cpus}cpu GUEST_ARGS=${4:-60} vm_guest_test base "${1:-newest}" 0 \
	--cpus "$cpus" --nodes "$nodes" --timeout 900
