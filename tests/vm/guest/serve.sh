# scx_fuzz serve (#14): a service in a systemd-style cgroup fuzzed across a restart,
# back-off under CPU pressure and back, flight records on a crash and on SIGUSR1,
# metrics (printed as METRICS lines for the host's Prometheus parser), SIGTERM detaches.
. ./lib.sh
require ./scx_fuzz ./mixload ./jsoncheck ./named
CG=/sys/fs/cgroup/system.slice/demo.service
LOG=/tmp/serve.log
M=/tmp/m.prom
mkdir -p /sys/fs/cgroup/system.slice
# The emulator's idle CPU pressure is near 15 %: thresholds above it.
cat >/tmp/serve.conf <<CONF
[target]
cgroup = system.slice/demo.service
comm = svcworker
error_command = test -e /tmp/svc-error
error_check_interval_s = 1
[fuzz]
intensity = low
seed = 5
[backoff]
cpu_pressure = 70
resume_below = 45
resume_step_s = 2
[output]
metrics = $M
json = /tmp/m.json
interval_s = 1
flight_dir = /tmp/flight
flight_events = 5000
CONF

metric() {  # NAME: its value in the metrics file
	sed -n "s/^scx_fuzz_$1{[^}]*} //p" "$M"
}
wait_log() {  # REGEX SECONDS: until the serve log has a matching line
	i=0
	while ! grep -qE "$1" "$LOG" && [ $i -lt $(($2 * 10)) ]; do sleep 0.1; i=$((i + 1)); done
	grep -qE "$1" "$LOG"
}
check_log() {  # REGEX SECONDS WHAT
	if wait_log "$1" "$2"; then ok "$3"; else not_ok "$3 (no log line /$1/ in $2 s)"; fi
}
start_service() {  # ARGS of mixload: a "unit start" makes the cgroup and runs the service in it
	mkdir -p $CG
	sh -c "echo \$\$ > $CG/cgroup.procs; exec ./mixload $*" >/dev/null 2>&1 &
	SVC=$!
}

# 1. Bad configurations: one line naming the file and line, exit 2, nothing attached.
printf '[target]\ncgroup = x\n[fuzz]\nintensty = low\n' >/tmp/bad.conf
run_cmd ./scx_fuzz serve --config /tmp/bad.conf
expect_rc 2 "serve: a misspelled key is refused"
expect_out "^scx_fuzz: /tmp/bad.conf:4: unknown key 'intensty' in \[fuzz\]$" "serve: the error names file and line"
expect_state disabled "serve: nothing attached after a bad config"

# 2. Started before the service's cgroup exists; the unit starts later.
./scx_fuzz serve --config /tmp/serve.conf >$LOG 2>&1 &
SERVE=$!
if wait_state enabled 30; then ok "serve: attached"; else not_ok "serve: attached"; fi
check_log "cgroup system.slice/demo.service is gone" 10 "serve: waits for a cgroup that is not there yet"
start_service -t 5 -c 2 -s 2
check_log "cgroup system.slice/demo.service is there: fuzzing it" 10 "serve: the unit's cgroup seen when it appears"
wait $SVC
sleep 2
first=$(metric target_runs_total)
expect_cmp "${first:-0}" ">" 100 "serve: the service's threads ran as targets"

# 3. Restart: the cgroup is removed and made anew (a new id), and fuzzed again.
rmdir $CG
check_log "is gone: fuzzing it when it comes back" 10 "serve: the removed cgroup noticed"
start_service -t 5 -c 2 -s 2
i=0
while [ "$(grep -c 'is there: fuzzing it' $LOG)" -lt 2 ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
expect_cmp "$(grep -c 'is there: fuzzing it' $LOG)" "==" 2 "serve: the re-created cgroup followed"
wait $SVC
sleep 2
expect_cmp "$(metric target_runs_total)" ">" "$((first + 100))" "serve: fuzzed after the restart too"
expect_cmp "$(metric delayed_total)" ">" 0 "serve: wake-ups of the service held back"
expect_cmp "$(metric delay_share)" "<=" 0.01 "serve: delay share within the 1% budget"

# 4. A crash: the flight record names the death and holds the last decisions.
start_service -t 60 -c 2 -s 2
sleep 3
kill -SEGV $SVC
wait $SVC
check_log "flight record /tmp/flight/.*died of signal 11" 10 "serve: a crash writes a flight record"
rec=$(ls /tmp/flight/*.json 2>/dev/null | head -n1)
if [ -n "$rec" ] && grep -q '"process died"' "$rec" && grep -q '"signal":11' "$rec"; then
	ok "serve: the record names the death"; else not_ok "serve: the record names the death ($rec)"; fi
runs=$(grep -o '"ph":"X"' "$rec" | wc -l)
expect_cmp "$runs" ">" 10 "serve: the record holds the service's last runs"
json_check "$rec"
rmdir $CG

# 4b. A process whose only target is a worker thread (comm): its death is reported too.
./named -t 60 svcworker >/dev/null &
NAMED=$!
sleep 3
kill -SEGV $NAMED
wait $NAMED
check_log "flight record .*process $NAMED \\(named\\) died of signal 11" 10 \
	"serve: a process whose worker thread is a target: its crash writes a record"

# 4c. SIGTERM (systemctl stop or restart) is a stop asked for, not a crash: no record.
start_service -t 60 -c 2 -s 2
sleep 3
kill -TERM $SVC
wait $SVC
sleep 3
expect_cmp "$(grep -c 'died of signal 15' $LOG)" "==" 0 "serve: a service stopped by SIGTERM writes no record"
rmdir $CG

# 5. SIGUSR1 writes one on demand.
kill -USR1 $SERVE
check_log "flight record .*\(SIGUSR1\)" 10 "serve: SIGUSR1 writes a flight record"

# 5b. error_command: its success (the service logged an error, say) writes one record per streak.
touch /tmp/svc-error
check_log "flight record .*\(the error command succeeded\)" 10 "serve: error_command's success writes a flight record"
sleep 3
expect_cmp "$(grep -c 'the error command succeeded' $LOG)" "==" 1 "serve: one record while the error lasts"
rm /tmp/svc-error

# 6. Back-off: CPU hogs outside the service push pressure up: fuzzing off, then back a step at a time.
for i in 1 2 3 4 5 6 7 8; do sh -c 'while :; do :; done' & done
check_log "back-off: cpu pressure .* above 70%: fuzzing off" 60 "serve: fuzzing off under CPU pressure"
start_service -t 4 -c 1 -s 2
wait $SVC
sleep 1.5
expect_cmp "$(metric unfuzzed_ratio)" "==" 1 "serve: metrics show fuzzing off"
expect_cmp "$(metric backed_off_total)" ">" 0 "serve: the service ran unfuzzed while backed off"
rmdir $CG
for p in $(pids_matching 'sh -c while :; do :; done*'); do kill $p; done
check_log "fuzzing 25% of target events" 90 "serve: back a quarter when calm"
check_log "fuzzing 50% of target events" 20 "serve: then half"
check_log "fuzzing 100% of target events" 20 "serve: then fully"
grep 'back-off' $LOG | sed 's/^/    | /'
sleep 1.5
echo "METRICS-BEGIN"
sed 's/^/METRICS: /' $M
echo "METRICS-END"

# 7. SIGTERM: detach, exit 0, the metrics file says detached.
kill -TERM $SERVE
wait $SERVE
RC=$?
expect_rc 0 "serve: SIGTERM exits 0"
expect_state disabled "serve: detached"
expect_cmp "$(metric attached)" "==" 0 "serve: metrics say detached"
expect_cmp "$(metric ejections_total)" "==" 0 "serve: never ejected"
json_check /tmp/m.json
expect_cmp "$(sed -n 's/.*"delayed":\([0-9]*\).*/\1/p' /tmp/m.json)" "==" "$(metric delayed_total)" \
	"serve: the json file holds the metrics' counters"
sed 's/^/    | /' $LOG | grep -v 'stats:' | head -n 40
ok "guest script completed"
