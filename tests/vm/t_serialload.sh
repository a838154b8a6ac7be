#!/bin/bash
# Serialized targets on a 16-CPU, 4-node machine (tests/vm/guest/serialload.sh).
. "$(dirname "$0")/testlib.sh"
vm_guest_test serialload "${1:-newest}" 0 --cpus 16 --nodes 4 --timeout "${2:-900}"
