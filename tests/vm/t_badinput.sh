#!/bin/bash
# Bad input that needs a sched_ext kernel (tests/vm/guest/badinput.sh); default newest.
. "$(dirname "$0")/testlib.sh"
vm_guest_test badinput "${1:-newest}" 0 --cpus 4 --timeout 600
