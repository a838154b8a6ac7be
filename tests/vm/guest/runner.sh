# The runner: --until-failure with a reproduction line that fails again, a
# deadlock caught by --timeout as a hang, --fail-on, --until-success, JSON and
# trace files (printed for the host to validate), SIGINT during a campaign,
# leftover children cleaned up, and the loader killed with SIGKILL. Runs in the guest.
. ./lib.sh
show_file() {  # NAME PATH: print a file between markers for the host-side checks
	echo "=== BEGIN $1"
	cat "$2"
	echo "=== END $1"
}

# 1. Stop at the first failure, say how to repeat it, and repeating it fails again.
run_cmd ./scx_fuzz --until-failure --timeout 10 --migrate 30 --json /tmp/campaign.json \
	--trace /tmp/trace.json -- ./expiry
expect_rc 1 "--until-failure stops at a failure: exit 1"
expect_out '^scx_fuzz: run [0-9]+ seed [0-9]+: FAIL: exit status 1 in ' "one line per run, the failing one says why"
expect_out '^scx_fuzz:   \| expiry: race hit' "the failing run's output tail is shown"
expect_out '^scx_fuzz: its counters: delayed=[1-9]' "the failing run's counters are shown"
expect_out '^scx_fuzz: trace of run [0-9]+ \([1-9][0-9]* events' "the failing run's trace is written"
repro=$(sed -n 's/^scx_fuzz: reproduce with: //p' "$OUT")
echo "    | repro: $repro"
expect_cmp "$(echo "$repro" | grep -c -- '--seed [0-9]* --timeout 10 --migrate 30 --trace /tmp/trace.json -- ./expiry$')" "==" 1 \
	"the reproduction line keeps the run's options and pins its seed"
show_file campaign.json /tmp/campaign.json
show_file trace.json /tmp/trace.json
run_cmd sh -c "$repro"
expect_rc 1 "the reproduction line fails again (CMD's status passed through)"

# 2. A deadlock is caught by --timeout and reported as a hang.
# Its windows are doubled (100 ms period, 10 ms hold: a thread must fall 40-60 ms
# behind), as are --intensity high's delays against medium's: the fuzzer's odds
# stay those of medium with the defaults, while the emulator's 20-30 ms hiccups,
# which deadlocked one default run of the 50 ms version, no longer suffice.
# Under the default scheduler it takes about 3 s; one still going after 15 s is
# taken as deadlocked, and its threads' states are shown to tell a slow run apart.
DEADLOCK="./deadlock -n 30 -p 100 -H 10"
fails=0
for i in 1 2 3 4 5; do
	$DEADLOCK >/dev/null & p=$!
	w=0
	while kill -0 $p 2>/dev/null && [ $w -lt 150 ]; do sleep 0.1; w=$((w + 1)); done
	if kill -0 $p 2>/dev/null; then
		echo "    | deadlock run $i still going after 15 s; its threads (comm, state, wchan):"
		for t in /proc/$p/task/*; do
			echo "    |   $(cat $t/comm) $(cut -d' ' -f3 $t/stat) $(cat $t/wchan)"
		done
		kill -9 $p
		fails=$((fails + 1))
	fi
	wait $p
done
expect_quiet "$fails" 5 "deadlock (doubled windows)"
run_cmd ./scx_fuzz --intensity high --until-failure --repeat 20 --timeout 8 --json /tmp/hang.json -- $DEADLOCK
expect_rc 1 "a deadlock is found: exit 1"
expect_out '^scx_fuzz: run [0-9]+ seed [0-9]+: HANG: still running after --timeout 8 s' "reported as a hang"
show_file hang.json /tmp/hang.json
sleep 1002 & probe=$!
expect_cmp "$(pids_matching '*sleep 1002*' | wc -l)" "==" 1 "pids_matching sees a live process"
kill $probe; wait $probe 2>/dev/null
expect_cmp "$(pids_matching '*deadlock*' | wc -l)" "==" 0 "the hung tree was killed"

# 3. --fail-on: output that means failure; --until-success stops at a pass.
run_cmd ./scx_fuzz --repeat 2 --fail-on 'ok: [0-9]+ items' -- ./expiry -t 1000 -n 20
expect_rc 1 "--fail-on match makes a run fail"
expect_out 'FAIL: output matched --fail-on: expiry: ok: 20 items' "the matching line is quoted"
run_cmd ./scx_fuzz --until-success --repeat 5 -- sh -c 'exit 0'
expect_rc 0 "--until-success: a pass ends the campaign with 0"
expect_out '^scx_fuzz: campaign: 1 runs, 0 failed' "--until-success stopped after one run"

# 4. A command that forks and exits: its leftovers are killed at the end of the run.
run_cmd ./scx_fuzz -- sh -c 'sleep 1000 & sleep 1001 & exit 0'
expect_rc 0 "a command that leaves children behind"
expect_cmp "$(pids_matching '*sleep 100[01]*' | wc -l)" "==" 0 "its leftover children were killed"

# 4b. --error-command: a target that logs its failure and keeps running.
rm -f /tmp/err.marker
run_cmd ./scx_fuzz --error-command 'grep -q ERROR /tmp/err.marker' --error-check-interval 0.5 --timeout 60 \
	-- sh -c 'sleep 2; echo ERROR > /tmp/err.marker; sleep 1003'
expect_rc 1 "--error-command: its success fails the run"
expect_out 'FAIL: --error-command succeeded: grep -q ERROR /tmp/err.marker' "the failure names the error command"
expect_cmp "$(pids_matching '*sleep 1003*' | wc -l)" "==" 0 "the target still running was killed"
run_cmd ./scx_fuzz --error-command 'grep -q ERROR /tmp/no.marker' --error-check-interval 0.2 -- sleep 2
expect_rc 0 "--error-command that never succeeds: the run passes"

# 4c. The original tool's names: --max-iterations N runs until a failure; --iteration-time ends a run as a pass.
run_cmd ./scx_fuzz --max-iterations 2 --iteration-time 1 -- sleep 1004
expect_rc 0 "--iteration-time: runs that outlive it pass"
expect_cmp "$(grep -c 'pass (ended after --iteration-time 1 s)' "$OUT")" "==" 2 "--max-iterations 2: two runs, each ended"
expect_cmp "$(pids_matching '*sleep 1004*' | wc -l)" "==" 0 "the ended runs' processes were killed"

# 5. SIGINT during a campaign: the run stops, the campaign is reported, scx_fuzz detaches.
./scx_fuzz --repeat 1000 -- sh -c 'sleep 0.3' >"$OUT" 2>&1 &
pid=$!
wait_state enabled 20
sleep 3
kill -INT $pid
wait $pid
RC=$?
sed 's/^/    | /' "$OUT"
expect_rc 130 "SIGINT ends a campaign without failures with 130"
expect_out '^scx_fuzz: campaign: [0-9]+ runs, 0 failed, .*\(interrupted\)' "the campaign so far is reported"
expect_state disabled "detached after SIGINT"

# 6. The loader killed with SIGKILL: the kernel falls back to the default scheduler.
./scx_fuzz -- sleep 1000 >/dev/null 2>&1 &
pid=$!
wait_state enabled 20
kill -9 $pid
wait $pid
i=0; while [ "$(cat $SCX/state)" != disabled ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
expect_state disabled "SIGKILL of the loader: the kernel detaches the scheduler"
kill -9 $(pids_matching '*sleep 1000*') 2>/dev/null
echo "ok - guest script completed"; exit 0
