#!/bin/bash
# Straight-line races and --serialize/--preempt on a 4-CPU machine (tests/vm/guest/interleave.sh).
. "$(dirname "$0")/testlib.sh"
vm_guest_test interleave "${1:-newest}" 0 --cpus 4 --timeout 1500
