#!/bin/bash
# CPU hotplug under load on an 8-CPU, 2-node machine.
. "$(dirname "$0")/testlib.sh"
vm_guest_test hotplug "${1:-newest}" 0 --cpus 8 --nodes 2 --timeout 150
