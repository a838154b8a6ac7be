#!/bin/bash
# The fuzzing engine on a 4-CPU machine (tests/vm/guest/fuzz.sh).
. "$(dirname "$0")/testlib.sh"
vm_guest_test fuzz "${1:-newest}" 0 --cpus 4 --timeout 600
