#!/bin/bash
# The rig itself: a guest that outlives its time limit gets verdict 91, and the
# rig names, by kernel function, where its vCPUs were (a silent hang's only trace).
. "$(dirname "$0")/testlib.sh"
kernel=${1:-newest}
log=$LOG_DIR/rig-timeout-$kernel.log
keep=${log%.log}-console.log
rm -f "${keep%.log}"*
SCXVM_KEEP_CONSOLE=$keep "$VM_DIR/run" -q --kernel "$kernel" --cpus 2 --timeout 30 -- \
	sh -c 'echo guest-waiting; sleep 600' >"$log" 2>&1
rc=$?
tag="[rig timeout $kernel]"
check() { if eval "$1"; then echo "ok - $tag $2"; else echo "not ok - $tag $2 (log: $log)"; fi; }
check '[ "$rc" = 91 ]' "a guest past its time limit gets verdict 91 (got $rc)"
check 'grep -q "^guest-waiting$" "$log"' "the guest's command ran"
check 'grep -q "did not finish within 30s" "$log"' "the verdict says why"
# an idle guest's vCPUs halt: the rig must name the kernel's halt function
check 'grep -qE "^vm:   in [a-z_]*halt[a-z_]*: [0-9]+ vCPU" "$log"' "the vCPUs are named by kernel function"
check '[ "$(grep -c "^vcpu [0-9]*: " "${keep%.log}-vcpus-named.txt" 2>/dev/null)" = 2 ]' \
	"each vCPU's place and stack are kept beside the console"
