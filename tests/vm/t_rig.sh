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

# A kernel that dies while booting (here: too little memory) is booted once more, said
# so, and still fails: a second boot never turns a broken guest into a pass.
log=$LOG_DIR/rig-bootfail-$kernel.log
"$VM_DIR/run" -q --kernel "$kernel" --cpus 1 --mem 40 --timeout 60 -- true >"$log" 2>&1
rc=$?
tag="[rig boot failure $kernel]"
check '[ "$rc" = 91 ]' "a guest that cannot boot gets verdict 91 (got $rc)"
check '[ "$(grep -c "failed while booting, before the test began" "$log")" = 1 ]' \
	"it is booted once more, and only once, and the log says so"
