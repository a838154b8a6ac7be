# Guest-side assertions for VM tests (busybox sh). Each check prints one line,
# "ok - WHAT" or "not ok - WHAT", which tests/run counts.
SCX=/sys/kernel/sched_ext
OUT=/tmp/out

ok() { echo "ok - $*"; }
not_ok() { echo "not ok - $*"; }

# json_check FILE...: each parsed by json-c's strict parser (tests/progs/jsoncheck.c),
# one line each. A file whose name the script reuses is checked (and removed) when
# made; every other JSON file in /tmp is checked when the script exits.
json_check() {
	if [ -x ./jsoncheck ]; then ./jsoncheck "$@"; else not_ok "./jsoncheck is not in the guest"; fi
}
json_checked() {  # FILE: check it, and remove it if valid so the exit check skips it
	json_check "$1" && rm -f "$1"
}
trap 'set -- /tmp/*.json; [ -e "$1" ] && json_check "$@"' EXIT

# run_cmd CMD...: run it, keeping its exit status in $RC and its output in $OUT.
run_cmd() {
	"$@" >"$OUT" 2>&1
	RC=$?
	sed 's/^/    | /' "$OUT"
}

expect_rc() {  # N WHAT
	if [ "$RC" = "$1" ]; then ok "$2 (exit $RC)"; else not_ok "$2 (exit $RC, expected $1)"; fi
}

expect_out() {  # REGEX WHAT
	if grep -qE "$1" "$OUT"; then ok "$2"; else not_ok "$2 (no line matches /$1/)"; fi
}

expect_state() {  # STATE WHAT
	s=$(cat $SCX/state 2>/dev/null)
	if [ "$s" = "$1" ]; then ok "$2 (state $s)"; else not_ok "$2 (state '$s', expected $1)"; fi
}

# pids_matching GLOB: pids whose command line (arguments joined by spaces)
# matches GLOB. The guest's busybox has no pgrep/pkill.
pids_matching() {
	for d in /proc/[0-9]*; do
		c=$(tr '\0' ' ' <"$d/cmdline" 2>/dev/null) || continue
		case "$c" in $1) echo "${d#/proc/}" ;; esac
	done
}

# wait_state STATE SECONDS: poll until the sched_ext state is STATE.
wait_state() {
	i=0
	while [ "$(cat $SCX/state)" != "$1" ] && [ $i -lt $(($2 * 10)) ]; do
		sleep 0.1
		i=$((i + 1))
	done
	[ "$(cat $SCX/state)" = "$1" ]
}

# dump_blocked: every task in D state with its stack, what each CPU's runqueue holds
# (a CPU going offline waits for its runqueue to empty), and the kernel's own lists.
dump_blocked() {
	for d in /proc/[0-9]*; do
		st=$(sed -n 's/^State:\t//p' $d/status 2>/dev/null)
		case "$st" in D*) echo "--- D: $(cat $d/comm) ${d#/proc/}"; cat $d/stack;; esac
	done
	[ -r /sys/kernel/debug/sched/debug ] && sed -n '/^cpu#/,$p' /sys/kernel/debug/sched/debug
	echo w > /proc/sysrq-trigger; echo l > /proc/sysrq-trigger; sleep 2
}

# set_online CPU 0|1 SECONDS: write CPU's online file, waiting at most SECONDS; a
# write still blocked then is a hang: say so, dump the blocked tasks, return 2.
# A write that failed returns 1.
set_online() {
	(echo $2 > /sys/devices/system/cpu/cpu$1/online) & _q=$!
	_w=0
	while kill -0 $_q 2>/dev/null && [ $_w -lt $3 ]; do sleep 1; _w=$((_w + 1)); done
	if kill -0 $_q 2>/dev/null; then
		echo "HOTPLUG-HANG: cpu$1 online=$2 still blocked after ${_w}s (sched_ext state $(cat $SCX/state))"
		dump_blocked
		return 2
	fi
	wait $_q || return 1
}

# stat NAME: a value from the last "scx_fuzz: stats:" line in $OUT.
stat() {
	grep 'scx_fuzz: stats:' "$OUT" | tail -n1 | tr ' ' '\n' | sed -n "s/^$1=//p"
}

# expect_cmp A OP B WHAT: numeric comparison (awk, so decimals work).
expect_cmp() {
	if awk -v a="$1" -v b="$3" "BEGIN { exit !(a $2 b) }"; then ok "$4 ($1 $2 $3)";
	else not_ok "$4 ($1 $2 $3 is false)"; fi
}

# hb: one hackbench run (2 groups, 500 loops); prints its time in seconds.
hb() {
	hackbench -g 2 -l 500 2>&1 | sed -n 's/^Time: //p'
}

# best TIMES...: the smallest (the emulator's own noise only ever slows a run down).
best() { echo "$@" | tr ' ' '\n' | grep . | sort -n | head -n1; }

# require PROGRAM...: each must be in the guest; else one "not ok" line each and the
# script stops (so "guest script completed" is missing and the test fails).
require() {
	missing=0
	for p in "$@"; do
		[ -x "$p" ] || { not_ok "$p is not in the guest"; missing=1; }
	done
	[ $missing = 0 ] || exit 1
}

# Chance in this emulator: the default scheduler shows a calibrated race now and
# then (0 in 700 runs measured, docs/testing.md), so "quiet" allows QUIET_MAX.
QUIET_MAX=2
expect_quiet() {  # FAILS RUNS WHAT
	expect_cmp "$1" "<=" "$QUIET_MAX" "$3: quiet under the default scheduler (at most $QUIET_MAX of $2 runs)"
}

# race_check EX RUNS_DEFAULT RUNS_FUZZ MIN_FOUND WHAT [SCX_FUZZ FLAGS...]: quiet under the
# default scheduler, then found in at least MIN_FOUND of a RUNS_FUZZ-run campaign.
race_check() {
	ex=$1 nd=$2 nf=$3 min=$4 what=$5
	shift 5
	fails=0
	for i in $(seq "$nd"); do timeout 20 "./$ex" >/dev/null 2>&1 || fails=$((fails + 1)); done
	expect_quiet "$fails" "$nd" "$ex"
	./scx_fuzz "$@" --repeat "$nf" --seed 1 --json "/tmp/$ex.json" -- "./$ex" >"$OUT" 2>&1
	found=$(sed -n 's/.*"failures":\([0-9]*\).*/\1/p' "/tmp/$ex.json")
	json_checked "/tmp/$ex.json"
	grep '^scx_fuzz: run ' "$OUT" | sed 's/^/    | /'
	expect_cmp "${found:-0}" ">=" "$min" "$ex: found in at least $min of $nf runs $what"
}
