# The seed's Java demo (examples/java) in a guest that runs the host's JDK (rig
# --host-usr): quiet under the default scheduler, found by scx_fuzz --java and
# by --mode windows --java, each run until the first failure. Prints each
# campaign's time to failure ("ttf MODE SECONDS") for bench/java. Runs in the guest.
# usage: java.sh JAVA [CAMPAIGNS [RUNS_DEFAULT]]
#
# The JVM runs interpreted with the serial collector: in the emulator a busy
# compiler or GC thread holds TCG's one host thread for tens of ms, which made
# the JVM's own hand-offs 10-40 ms late with no fuzzing at all (docs/testing.md).
# The time to live is 40 ms (the demo's default is 20): one CI boot had 4 of 10
# default runs 21-25 ms late even interpreted.
. ./lib.sh
java="$1 -Xint -XX:+UseSerialGC -jar expiry.jar 200 40"
campaigns=${2:-1} runs_default=${3:-10}

fails=0
for i in $(seq "$runs_default"); do
	$java >"$OUT" 2>&1 || { fails=$((fails + 1)); sed 's/^/    | /' "$OUT"; }
done
tail -n1 "$OUT" | sed 's/^/    | /'
expect_quiet "$fails" "$runs_default" "java expiry"

# campaign NAME SCX_FUZZ_OPTIONS...: run until the first failure (at most 20 runs)
campaign() {
	name=$1
	shift
	for c in $(seq "$campaigns"); do
		run_cmd ./scx_fuzz "$@" --java --until-failure --repeat 20 --timeout 180 -- $java
		expect_rc 1 "java expiry: $name --java --until-failure stops at a failure"
		expect_out '^scx_fuzz:   \| Item is invalid!' "java expiry: $name: the failure is the expired item"
		ttf=$(sed -n 's/^scx_fuzz: campaign: .* failed, \([0-9.]*\) s .*/\1/p' "$OUT")
		echo "ttf $name ${ttf:-none}"
	done
}
campaign medium
campaign windows --mode windows
expect_state disabled "detached at the end"
echo "ok - guest script completed"; exit 0
