#!/bin/bash
# Topology on an emulated 16-CPU, 4-node machine agrees with the guest's sysfs.
. "$(dirname "$0")/testlib.sh"
vm_guest_test topo "${1:-newest}" 0 --cpus 16 --nodes 4
