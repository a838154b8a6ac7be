#!/bin/bash
# The runner on a 4-CPU machine (tests/vm/guest/runner.sh), then the host
# validates the JSON and trace files the guest printed.
. "$(dirname "$0")/testlib.sh"
kernel=${1:-newest}
vm_guest_test runner "$kernel" 0 --cpus 4 --timeout 900
log=$LOG_DIR/runner-$kernel.log
python3 "$VM_DIR/check_runner.py" "$log" "$kernel"
