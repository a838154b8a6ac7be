#!/bin/bash
# CPU hotplug under load on an 8-CPU, 2-node machine (133 s alone on 6.16.3; a busy
# host made it outlive a 150 s limit once, so the limit is generous).
. "$(dirname "$0")/testlib.sh"
vm_guest_test hotplug "${1:-newest}" 0 --cpus 8 --nodes 2 --timeout 400
