# Host-side helpers for VM tests: boot a guest, run a guest script, and turn
# its "ok"/"not ok" lines plus the rig's verdict into test results.
VM_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
LOG_DIR=${LOG_DIR:-$VM_DIR/../../build/test-logs}
mkdir -p "$LOG_DIR"

# vm_guest_test NAME KERNEL EXPECTED_RIG_RC [RIG OPTIONS...]
# GUEST_ARGS (words) are passed to the guest script; TEST_TAG names the log.
# Runs guest/NAME.sh; EXPECTED_RIG_RC is 0 for a clean guest log, 90 when the
# test provokes kernel-logged trouble the rig must catch.
vm_guest_test() {
	local name=$1 kernel=$2 want=$3 log rc ver tag
	shift 3
	log=$LOG_DIR/$name${TEST_TAG:+-$TEST_TAG}-$kernel.log
	rm -f "${log%.log}-console"*	# the console and vCPU dump of an earlier failed boot
	# shellcheck disable=SC2086
	SCXVM_KEEP_CONSOLE=${log%.log}-console.log "$VM_DIR/run" -q --kernel "$kernel" --add "$VM_DIR/guest/lib.sh" \
		--add "$VM_DIR/guest/$name.sh" "$@" -- sh "$name.sh" ${GUEST_ARGS:-} >"$log" 2>&1
	rc=$?
	ver=$(basename "$(dirname "$("$VM_DIR/kernel" "$kernel")")")
	tag="[$name${TEST_TAG:+ $TEST_TAG} $ver]"
	sed -n "s/^\\(not ok\\|ok\\) - /\\1 - $tag /p" "$log"
	grep -q '^ok - guest script completed' "$log" || echo "not ok - $tag guest script did not complete"
	if [ "$rc" = "$want" ]; then
		echo "ok - $tag rig verdict $rc as expected$([ "$want" = 0 ] && echo ' (guest log clean)')"
	else
		echo "not ok - $tag rig verdict $rc, expected $want (log: $log)"
		grep '^vm:' "$log" | head -n 8 | sed 's/^/    /'
		[ -f "${log%.log}-console.log" ] && echo "    whole console: ${log%.log}-console.log"
	fi
	[ "$want" = 90 ] && ! grep -q '^vm: FAIL: the guest kernel reported trouble' "$log" &&
		echo "not ok - $tag rig names the kernel trouble"
	return 0
}
