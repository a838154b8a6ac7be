#!/bin/bash
# Debian 12's kernel has no sched_ext: scx_fuzz must refuse with one line.
. "$(dirname "$0")/testlib.sh"
vm_guest_test noext noext 0 --cpus 2
