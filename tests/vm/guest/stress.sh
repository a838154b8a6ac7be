# Everything a test server does at once, for SECONDS: a fuzzed multi-threaded
# target (--intensity high, run after run), hackbench and a fork storm beside
# it, CPUs going offline and online, the target killed with SIGKILL now and
# then (its campaign starts the next run), and the loader itself killed with
# SIGKILL halfway and started again. The rig reads dmesg afterwards.
# usage: stress.sh [SECONDS]   (16 CPUs, 4 nodes)
. ./lib.sh
secs=${1:-120}
require ./scx_fuzz ./mixload
cpus=/sys/devices/system/cpu
end=$(($(date +%s) + secs))
half=$(($(date +%s) + secs / 2))

# BPF programs the kernel holds, by their JIT symbols (bpf_prog_<tag>_<name> [bpf]).
echo 1 >/proc/sys/net/core/bpf_jit_kallsyms 2>/dev/null
fuzz_progs() { grep -c ' bpf_prog_.*\[bpf\]$' /proc/kallsyms; }
progs_before=$(fuzz_progs)
for f in kills hb forks hotplug; do : >/tmp/$f.done; done

# Beside the target, untouched by fuzzing: hackbench runs and a fork storm, counted.
(while [ "$(date +%s)" -lt "$end" ]; do hackbench -g 2 -l 200 >/dev/null 2>&1 && echo x >>/tmp/hb.done; done) &
(while [ "$(date +%s)" -lt "$end" ]; do
	i=0; while [ $i -lt 200 ]; do true & i=$((i + 1)); done; wait; echo x >>/tmp/forks.done
done) &
# CPUs 1-15 offline and online, one or two at a time (CPU 0 stays).
(n=0; while [ "$(date +%s)" -lt "$end" ]; do
	c=$((n % 15 + 1)) d=$(((n * 7) % 15 + 1))
	echo 0 >$cpus/cpu$c/online && echo 0 >$cpus/cpu$d/online 2>/dev/null
	sleep 1
	echo 1 >$cpus/cpu$c/online; echo 1 >$cpus/cpu$d/online 2>/dev/null
	echo x >>/tmp/hotplug.done
	n=$((n + 1)); sleep 1
done; for c in $(seq 1 15); do echo 1 >$cpus/cpu$c/online 2>/dev/null; done) &

# start_loader N: a campaign of the multi-threaded target in the background; $LOADER its pid.
start_loader() {
	./scx_fuzz --intensity high --repeat 100000 --timeout 60 --json /tmp/stress$1.json \
		-- ./mixload -t 4 >/tmp/loader$1.out 2>&1 &
	LOADER=$!
	# loading and verifying take long beside this load on 16 emulated CPUs
	if wait_state enabled 180; then ok "loader $1 attached"; else not_ok "loader $1 attached"; fi
}
# kill_targets UNTIL: SIGKILL the running target every 3 s; each kill counted.
kill_targets() {
	while sleep 3 && [ "$(date +%s)" -lt "$1" ]; do
		p=$(pidof mixload | cut -d' ' -f1)	# by its name: not the loader whose argv holds it
		[ -n "$p" ] && kill -9 "$p" 2>/dev/null && echo x >>/tmp/kills.done
	done
}

start_loader 1
expect_cmp "$(fuzz_progs)" ">" "$progs_before" "loader 1: its BPF programs are loaded"
kill_targets "$half"
kill -9 $LOADER
wait $LOADER 2>/dev/null
# the kernel falls back to the default scheduler once the loader's link is gone
if wait_state disabled 20; then ok "loader killed with SIGKILL: back on the default scheduler"
else not_ok "loader killed with SIGKILL: back on the default scheduler (state $(cat $SCX/state))"; fi
start_loader 2
now=$(date +%s)
kill_targets $((now + 20 > end ? now + 20 : end))	# at least 20 s, however long loading took
# the campaign restarts a killed run, slowly beside this load: SIGINT goes to a running one
i=0; while [ $i -lt 120 ] && ! pidof mixload >/dev/null; do sleep 0.5; i=$((i + 1)); done
kill -INT $LOADER
wait $LOADER
RC=$?
expect_rc 1 "loader 2: SIGINT ends its campaign, which saw failures (the killed runs)"
expect_state disabled "loader 2: detached"
wait	# the load beside it and the hotplug loop

# Every run's end was reported: a line per run, and JSON with as many runs.
lines=$(grep -c '^scx_fuzz: run [0-9]* seed [0-9]*: ' /tmp/loader2.out)
json_runs=$(grep -o '"run":[0-9]*' /tmp/stress2.json | wc -l)
expect_cmp "$json_runs" ">" 0 "loader 2: runs were made"
expect_cmp "$lines" "==" "$json_runs" "loader 2: every run's end reported (a line per run in --json)"
killed=$(grep -o '"signal":9' /tmp/stress2.json | wc -l)
expect_cmp "$killed" ">" 0 "loader 2: targets killed with SIGKILL were reported as such"
expect_cmp "$json_runs" ">" "$killed" "loader 2: a run followed each killed one (the campaign restarted the target)"
tail -n 5 /tmp/loader1.out /tmp/loader2.out | sed 's/^/    | /'
echo "    | $(wc -l </tmp/kills.done) targets killed, $(wc -l </tmp/hb.done) hackbench runs, $(wc -l </tmp/forks.done) \
fork storms, $(wc -l </tmp/hotplug.done) hotplug rounds beside them"
expect_cmp "$(wc -l </tmp/kills.done)" ">" 0 "targets were killed with SIGKILL"
expect_cmp "$(wc -l </tmp/hb.done)" ">" 0 "hackbench beside the target made progress"
expect_cmp "$(wc -l </tmp/forks.done)" ">" 0 "the fork storm beside the target made progress"
expect_cmp "$(wc -l </tmp/hotplug.done)" ">" 0 "CPUs went offline and online"
if [ "$(cat $cpus/online)" = 0-15 ]; then ok "every CPU back online"; else not_ok "every CPU back online ($(cat $cpus/online))"; fi
expect_cmp "$(fuzz_progs)" "==" "$progs_before" "no BPF program left behind by either loader"
echo "ok - guest script completed"; exit 0
