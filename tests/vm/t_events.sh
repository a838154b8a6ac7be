#!/bin/bash
# Races shaped like real ones, found by scx_fuzz's defaults, and each of its
# event decisions fired and traced (tests/vm/guest/events.sh).
. "$(dirname "$0")/testlib.sh"
vm_guest_test events "${1:-newest}" 0 --cpus 4 --timeout 900
