#!/bin/bash
# Attach/run/detach, exit statuses and bad input on one kernel (default newest);
# then docs/usage.md's kernel-features table against what -v printed there.
. "$(dirname "$0")/testlib.sh"
kernel=${1:-newest}
vm_guest_test basic "$kernel" 0 --cpus 4
python3 "$VM_DIR/../compat_table.py" "$VM_DIR/../../docs/usage.md" "$LOG_DIR/basic${TEST_TAG:+-$TEST_TAG}-$kernel.log"
exit 0
