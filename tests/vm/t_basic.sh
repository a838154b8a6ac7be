#!/bin/bash
# Attach/run/detach, exit statuses and bad input on one kernel (default newest).
. "$(dirname "$0")/testlib.sh"
vm_guest_test basic "${1:-newest}" 0 --cpus 4
