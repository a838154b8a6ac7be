# --points: a race one instruction wide (examples/pairstore) is quiet under the
# default scheduler and under scx_fuzz's defaults, and found by --points auto,
# whose failure report names the instruction, also when a shell runs it; --mode
# pct counts point hits as steps; a race inside the program's own shared
# library is found there; points hit too often are dropped; a forked
# child gets points too; a process outside the tree never traps; and the
# probes go when the loader dies by SIGKILL. Runs in the guest.
# usage: points.sh [RUNS_DEFAULT [RUNS_FUZZ [STRIPPED]]] (STRIPPED 0: skip the stripped campaign)
. ./lib.sh
runs_default=${1:-10} runs_fuzz=${2:-7} stripped=${3:-1}
require ./scx_fuzz ./pairstore ./pairstore-stripped ./hitloop ./pairdyn ./libpairlib.so
failures() { sed -n 's/.*"failures":\([0-9]*\).*/\1/p' "$1"; }
counter() { grep -o "\"$1\":[0-9]*" "$2" | cut -d: -f2 | awk '{ s += $1 } END { print s + 0 }'; }

fails=0
for i in $(seq "$runs_default"); do ./pairstore >/dev/null 2>&1 || fails=$((fails + 1)); done
expect_quiet "$fails" "$runs_default" "pairstore"
./scx_fuzz --repeat "$runs_fuzz" --timeout 20 --seed 2 --json /tmp/plain.json -- ./pairstore >"$OUT" 2>&1
expect_cmp "$(failures /tmp/plain.json)" "<=" "$QUIET_MAX" \
	"pairstore: quiet (at most $QUIET_MAX of $runs_fuzz runs) under scx_fuzz without points"
# found in 21 of 30 runs (2026-12-07, 3 campaigns of 10, 7.3.4): a campaign of 12 misses it by
# chance about 5 in 10^7
run_cmd ./scx_fuzz --points auto --until-failure --repeat 12 --timeout 20 --seed 2 --json /tmp/points.json -- ./pairstore
expect_out "^scx_fuzz: [0-9]+ points in \\./pairstore: [0-9]+ lock calls, [0-9]+ functions, [0-9]+ instructions$" \
	"the points found are reported"
expect_cmp "$(failures /tmp/points.json)" "==" 1 "pairstore: found by --points auto within 12 runs"
expect_cmp "$(counter point_acts /tmp/points.json)" ">" 0 "targets were preempted at points"
expect_out "^scx_fuzz:   preempted thread [0-9]+ at [a-z_]+\\+0x[0-9a-f]+ \\(pairstore\\.c:[0-9]+\\)$" \
	"the failure report names the instruction, with its source line"

# pct: every point hit is a step, so change points fall on instructions
./scx_fuzz --mode pct --points auto --repeat 3 --timeout 20 --seed 2 --json /tmp/pct.json -- ./pairstore >"$OUT" 2>&1
expect_cmp "$(counter pct_steps /tmp/pct.json)" ">" "$(counter point_hits /tmp/pct.json)" \
	"--mode pct: point hits are steps"
expect_cmp "$(counter pct_changes /tmp/pct.json)" ">" 0 "--mode pct: change points reached"

# a point hit 10^5 times in a few seconds: dropped under the rate cap, the run stays fast
run_cmd ./scx_fuzz --points funcs --point-rate 1000 --seed 2 -- ./hitloop -n 20000 -r 20
expect_rc 0 "hitloop under --points funcs completes"
expect_out "points hit more than [0-9]+ times a second: the [0-9]+ hottest dropped" "hot points are dropped (--point-rate)"
first=$(sed -n 's/.*round 1: .*, \([0-9.]*\) us per call/\1/p' "$OUT")
last=$(sed -n 's/.*round 20: .*, \([0-9.]*\) us per call/\1/p' "$OUT")
expect_cmp "$last" "<" "$(awk -v f="$first" 'BEGIN { print f / 10 }')" "once dropped, a call costs no trap"

# auto never refuses: with nothing to place (the guest's sh is a stripped static busybox; a
# script is not ELF) the run goes on without points; an explicit kind still says it found none
run_cmd ./scx_fuzz --points auto --seed 2 -- sh -c 'exit 3'
expect_rc 3 "--points auto, no point in a stripped static sh: the run goes on, its status kept"
expect_out "^scx_fuzz: note: --points auto: no point found in [^ ]*: points only in the programs it runs$" \
	"--points auto, no point in sh: one note"
expect_out "^scx_fuzz: fuzzing the command's process tree" "--points auto, no point in sh: fuzzed all the same"
printf '#!/bin/sh\nexit 4\n' >/tmp/script.sh
chmod +x /tmp/script.sh
run_cmd ./scx_fuzz --points auto --seed 2 -- /tmp/script.sh
expect_rc 4 "--points auto on a script: the run goes on, its status kept"
expect_out "^scx_fuzz: note: --points auto: .*: points only in the programs it runs$" \
	"--points auto on a script: one note"
run_cmd ./scx_fuzz --points funcs --seed 2 -- sh -c 'exit 3'
expect_rc 2 "--points funcs, no function in sh: a usage error"
expect_out "^scx_fuzz: --points funcs: no point found in " "--points funcs, no function in sh: one clear line"
# the same race inside the program's own library (libpairlib.so at $ORIGIN, no debug info):
# points go in the library too; 51 of 72 runs failed (2026-12-07, 6 campaigns of 12, 7.3.4), each
# campaign naming an instruction of the library in its reports: 12 runs all pass by chance ~4e-7
fails=0
for i in $(seq "$runs_default"); do ./pairdyn >/dev/null 2>&1 || fails=$((fails + 1)); done
expect_quiet "$fails" "$runs_default" "pairdyn"
run_cmd ./scx_fuzz --points auto --repeat 12 --timeout 20 --seed 2 --json /tmp/dyn.json -- ./pairdyn
expect_out "^scx_fuzz: [0-9]+ points in \\./pairdyn and [^ ]*libc\\.so\\.6, /scx/libpairlib\\.so: " \
	"pairdyn: its own library has points, named after its C library"
expect_cmp "$(failures /tmp/dyn.json)" ">=" 1 "pairdyn: the race in its library found by --points auto in 12 runs"
expect_out "^scx_fuzz:   preempted thread [0-9]+ at libpairlib\\.so:pair_(publish|torn)\\+0x[0-9a-f]+$" \
	"pairdyn: a report names the library's instruction (no debug info: no source line)"

# through a wrapper, as make, ctest and CI scripts start programs: the shell execs the program,
# which waits for its points before it runs (docs/design.md, "Points"); found in 23 of 30 runs
# (2026-12-07, 3 campaigns of 10, 7.3.4): a campaign of 12 misses it by chance about 2 in 10^8
run_cmd ./scx_fuzz --points auto --until-failure --repeat 12 --timeout 20 --seed 2 --json /tmp/sh.json \
	-- sh -c './pairstore'
expect_out "^scx_fuzz: [0-9]+ points in [^ ]*/pairstore, run by the target: [0-9]+ lock calls" \
	"sh -c: the points of the program it runs are reported"
expect_cmp "$(failures /tmp/sh.json)" "==" 1 "sh -c './pairstore': found by --points auto within 12 runs"
expect_out "^scx_fuzz:   preempted thread [0-9]+ at pairstore:[a-z_]+\\+0x[0-9a-f]+ \\(pairstore\\.c:[0-9]+\\)$" \
	"sh -c: the report names the program, the instruction and its source line"
expect_cmp "$(counter image_waits /tmp/sh.json)" ">" 0 "sh -c: the exec'd process waited for its points"
echo "    | image_waits $(counter image_waits /tmp/sh.json), timeouts $(counter image_timeouts /tmp/sh.json)," \
	"$(counter image_wait_ns /tmp/sh.json) ns waited"

# stripped, as releases ship (no symbols, no debug info), through sh -c: its own code is what
# main reaches, found by disassembly from _start (loader/points/reach.c, plain user-space logic:
# make test runs this campaign on the newest kernel only); found in 24 of 30 runs
# (2026-12-08, 3 campaigns of 10, 7.3.4, beside a busy guest): 12 runs miss it by chance ~4e-9
if [ "$stripped" = 1 ]; then
	run_cmd ./scx_fuzz --points auto --until-failure --repeat 12 --timeout 20 --seed 2 --json /tmp/strip.json \
		-- sh -c './pairstore-stripped'
	expect_out "^scx_fuzz: [0-9]+ points in [^ ]*/pairstore-stripped, run by the target: .* \\(no symbols: its own code is what main reaches" \
		"stripped: its points are the code main reaches"
	expect_cmp "$(failures /tmp/strip.json)" "==" 1 "sh -c './pairstore-stripped': found by --points auto within 12 runs"
	expect_out "^scx_fuzz:   preempted thread [0-9]+ at pairstore-stripped:(main|sub_[0-9a-f]+)\\+0x[0-9a-f]+$" \
		"stripped: the report names the code by address"
fi

# a shell that forks and execs; probes are per process: the same file run outside the tree does not trap
: >/tmp/inside.out
./scx_fuzz --points auto --point-prob 0.001 --point-rate 100000000 --seed 2 -- \
	sh -c './hitloop -n 2000 -r 8; exit $?' >/tmp/inside.out 2>&1 &
loader=$!
i=0
while ! grep -q "round 3:" /tmp/inside.out && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
./hitloop -n 2000 -r 3 >/tmp/outside.out 2>&1
inside=$(sed -n 's/.*round 3: .*, \([0-9.]*\) us per call/\1/p' /tmp/inside.out)
outside=$(sed -n 's/.*round 3: .*, \([0-9.]*\) us per call/\1/p' /tmp/outside.out)
echo "    | round 3: ${inside:-?} us per call in the tree, ${outside:-?} us outside it"
expect_cmp "${outside:-999}" "<" "$(awk -v f="${inside:-0}" 'BEGIN { print f / 10 }')" \
	"the program sh -c forks and execs traps at its points; the same file outside the tree does not"
wait $loader
expect_cmp "$?" "==" 0 "sh -c './hitloop; exit \$?' under --points auto: its status kept"

# a child the program forks without exec gets links of its own (the parent's are filtered to it)
run_cmd ./scx_fuzz --points auto --point-prob 0.001 --point-rate 100000000 --seed 2 -- ./hitloop -f -n 2000 -r 2
expect_rc 0 "hitloop -f under --points auto completes"
forked=$(sed -n 's/.*round 2: .*, \([0-9.]*\) us per call/\1/p' "$OUT")
echo "    | round 2 in the forked child: ${forked:-?} us per call"
expect_cmp "${forked:-0}" ">" "$(awk -v f="${outside:-999}" 'BEGIN { print f * 10 }')" \
	"a child forked without exec traps at its points"

# the loader killed with SIGKILL: its probes go with it
: >/tmp/killed.out
./scx_fuzz --points funcs --point-prob 0.001 --point-rate 100000000 -- ./hitloop -n 20000 -r 40 \
	>/tmp/killed.out 2>&1 &
loader=$!
i=0
while ! grep -q "round 3:" /tmp/killed.out && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
echo "    | waited $i tenths of a second for round 3"
kill -9 $loader
wait $loader 2>/dev/null
i=0
while [ -n "$(pids_matching './hitloop *')" ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
sed 's/^/    | /' /tmp/killed.out | tail -n 3
first=$(sed -n 's/.*round 1: .*, \([0-9.]*\) us per call/\1/p' /tmp/killed.out)
last=$(sed -n 's/.*round 40: .*, \([0-9.]*\) us per call/\1/p' /tmp/killed.out)
expect_cmp "${last:-999}" "<" "$(awk -v f="${first:-0}" 'BEGIN { print f / 10 }')" \
	"after the loader's SIGKILL the target runs without traps: no probe left"
wait_state disabled 20 && ok "detached after SIGKILL" || not_ok "still attached after SIGKILL"
expect_state disabled "detached at the end"
echo "ok - guest script completed"; exit 0
