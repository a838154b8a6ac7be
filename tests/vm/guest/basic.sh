# Attach, run work, detach; exit statuses; bad input. Runs in the guest.
. ./lib.sh

expect_state disabled "no scheduler before the tests"

# -v names the kernel's features before loading; the host checks docs/usage.md's table against them.
run_cmd ./scx_fuzz -v -- true
expect_rc 0 "scx_fuzz -v -- true"
expect_out '^scx_fuzz: kernel features: dsq_insert_v2=(yes|no) ' "-v prints the kernel's features"
echo "KFEATURES $(uname -r) $(grep '^scx_fuzz: kernel features: ' "$OUT" | head -n1)"

# The target sees scx_fuzz attached while it runs, and a threaded load completes.
run_cmd ./scx_fuzz -- sh -c 'echo "state=$(cat /sys/kernel/sched_ext/state)";
	echo "ops=$(cat /sys/kernel/sched_ext/root/ops)";
	hackbench -g 4 -l 200 && hackbench -T -g 2 -l 200 && echo workload-done'
expect_rc 0 "scx_fuzz -- hackbench"
expect_out '^state=enabled$' "state is enabled while the target runs"
expect_out '^ops=scx_fuzz$' "root/ops names scx_fuzz while the target runs"
expect_out '^workload-done$' "hackbench (processes and threads) completed under scx_fuzz"
expect_out '^scx_fuzz: exit: unregistered from user space' "exit reason printed on detach"
expect_state disabled "detached after the target exited"

run_cmd ./scx_fuzz -- sh -c 'exit 7'
expect_rc 7 "target's exit status passed through"

run_cmd ./scx_fuzz -- sh -c 'kill -9 $$'
expect_rc 137 "target killed by SIGKILL gives 128+9"

run_cmd ./scx_fuzz --stats 1 -- sh -c 'hackbench -g 2 -l 100 >/dev/null; sleep 1'
expect_rc 0 "--stats run"
expect_out 'stats: enqueue=[1-9][0-9]* .*llc=[1-9]' "stats counters are summed and non-zero"

run_cmd ./scx_fuzz -- /no/such/program
expect_rc 127 "missing CMD"
expect_out "^scx_fuzz: cannot run '/no/such/program': command not found$" "missing CMD: one clear line"
expect_state disabled "missing CMD leaves the default scheduler"

run_cmd ./scx_fuzz -- /proc/cpuinfo
expect_rc 126 "non-executable CMD"

run_cmd ./scx_fuzz --test-fault verifier -- true
expect_rc 3 "verifier rejection"
expect_out "cannot load the BPF scheduler: .*verifier" "verifier rejection: clear line"
expect_out "fuzz_verifier_reject|invalid access to map value|offset \\+ access_size" "verifier rejection: log tail shown"
expect_state disabled "verifier rejection leaves the default scheduler"

# A second instance refuses, naming the first; SIGTERM detaches the first cleanly.
./scx_fuzz -- sleep 60 >/tmp/first 2>&1 &
first=$!
if wait_state enabled 20; then ok "first instance attached"; else not_ok "first instance attached"; fi
run_cmd ./scx_fuzz -- true
expect_rc 3 "second instance refused"
expect_out "^scx_fuzz: another sched_ext scheduler is attached: 'scx_fuzz'" "second instance names the attached scheduler"
kill -TERM $first
wait $first
RC=$?
expect_rc 143 "SIGTERM reaches the target (sleep dies of SIGTERM)"
cp /tmp/first "$OUT"
expect_out '^scx_fuzz: exit: unregistered from user space' "SIGTERM: exit reason printed"
expect_state disabled "SIGTERM detaches"

# No CMD: attached until SIGINT.
./scx_fuzz >/tmp/idle 2>&1 &
idle=$!
if wait_state enabled 20; then ok "attached without a target"; else not_ok "attached without a target"; fi
kill -INT $idle
wait $idle
RC=$?
expect_rc 0 "SIGINT without a target exits 0"
expect_state disabled "SIGINT detaches"
echo "ok - guest script completed"; exit 0
