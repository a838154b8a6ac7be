#!/bin/bash
# The example races on a 4-CPU machine (tests/vm/guest/examples.sh).
. "$(dirname "$0")/testlib.sh"
vm_guest_test examples "${1:-newest}" 0 --cpus 4 --timeout 900
