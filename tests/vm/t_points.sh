#!/bin/bash
# Preemption points inside the program (tests/vm/guest/points.sh).
. "$(dirname "$0")/testlib.sh"
vm_guest_test points "${1:-newest}" 0 --cpus 4 --timeout 900
