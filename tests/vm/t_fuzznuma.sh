#!/bin/bash
# Fuzzing on a 16-CPU, 4-node machine (tests/vm/guest/fuzznuma.sh).
. "$(dirname "$0")/testlib.sh"
vm_guest_test fuzznuma "${1:-newest}" 0 --cpus 16 --nodes 4 --timeout "${2:-600}"
