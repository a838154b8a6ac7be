#!/bin/bash
# make demo end to end (newest kernel): the default scheduler stays quiet,
# scx_fuzz finds the race, and the failing run's trace comes back as a text
# timeline showing the hold that caused it.
. "$(dirname "$0")/testlib.sh"
log=$LOG_DIR/demo.log
"$VM_DIR/demo" >"$log" 2>&1
rc=$?
check() {  # WHAT COMMAND...
	local what=$1
	shift
	if "$@" >/dev/null; then echo "ok - [demo] $what"; else echo "not ok - [demo] $what (log: $log)"; fi
}
check "exited 0: attached, quiet under the default scheduler, race shown, clean guest log (status $rc)" [ "$rc" = 0 ]
check "10 runs under the default scheduler, at most 2 failed (emulator noise)" \
	[ "$(grep -c '^   run [0-9]*: ok$' "$log")" -ge 8 ]
check "scx_fuzz found the race and printed the seed" grep -qE 'run [0-9]+ seed [0-9]+: FAIL' "$log"
check "the reproduction command is printed" grep -q 'reproduce with: ./scx_fuzz --seed [0-9]' "$log"
check "detached afterwards" grep -q 'state after scx_fuzz exited: disabled' "$log"
check "the timeline shows a thread held back" grep -qE '^     expiry \([0-9]+\) +\|[^|]*~[^|]*\|$' "$log"
check "the longest hold is listed" grep -qE '^     held [0-9.]+ ms: expiry' "$log"
# what the demo showed of its failing runs, for a failure here
grep -qE '^     held [0-9.]+ ms: expiry' "$log" || sed -n '/^== 3\./,/^demo: /p' "$log" | sed 's/^/# /'
# Without its example program the demo must stop before booting, naming it. The
# programs are hidden from this demo alone: other groups' guests may be starting.
empty=$(mktemp -d)
out=$(SCX_FUZZ_PROGS=$empty "$VM_DIR/demo" 2>&1)
rc=$?
rmdir "$empty"
check "without build/progs/expiry: exit 1 naming it (exit $rc)" \
	eval '[ "$rc" = 1 ] && grep -q "^demo: FAILED: $empty/expiry is missing" <<<"$out"'
