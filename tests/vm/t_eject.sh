#!/bin/bash
# A BPF-side error ejects the scheduler: scx_fuzz reports it, and the rig,
# without --allow-eject, must flag the kernel's error line (verdict 90).
. "$(dirname "$0")/testlib.sh"
vm_guest_test eject "${1:-newest}" 90 --cpus 2
