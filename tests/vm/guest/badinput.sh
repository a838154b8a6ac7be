# Bad input that needs a sched_ext kernel (the rest is tests/cli.sh): the rows of
# docs/testing.md's bad-input table that name t_badinput. Runs in the guest.
. ./lib.sh
require ./scx_fuzz

# A report that cannot be written (a full disk): said in one line, the target's status kept.
run_cmd ./scx_fuzz --json /dev/full -- sh -c 'exit 5'
expect_rc 5 "--json on a full disk: the target's exit status is kept"
expect_out "^scx_fuzz: cannot write /dev/full: No space left on device$" "--json on a full disk: said in one line"
run_cmd ./scx_fuzz --trace /dev/full -- sh -c 'exit 6'
expect_rc 6 "--trace on a full disk: the target's exit status is kept"
expect_out "^scx_fuzz: cannot write the trace to /dev/full: No space left on device$" \
	"--trace on a full disk: said in one line"
expect_state disabled "after a full disk: detached"

# A target that exits at once, run after run.
run_cmd ./scx_fuzz --repeat 50 -- true
expect_rc 0 "a target that exits at once, 50 runs: exit 0"
expect_out "^scx_fuzz: campaign: 50 runs, 0 failed" "a target that exits at once: every run counted"

# A target that forks 10,000 children (each a target, fuzzed at medium).
run_cmd ./scx_fuzz --intensity medium --timeout 300 -- \
	sh -c 'i=0; while [ $i -lt 10000 ]; do true & i=$((i + 1)); done; wait; echo forked=$i'
expect_rc 0 "a target forking 10,000 children: exit 0"
expect_out '^forked=10000$' "a target forking 10,000 children: all forked and reaped"
expect_state disabled "after the fork storm: detached"

# The loader signalled while it loads the BPF program (before it attaches): nothing is left
# attached, and the next instance attaches. (Not SIGINT: sh starts background jobs with it
# ignored; before the attach it would act as SIGTERM does.)
for sig in KILL TERM; do
	./scx_fuzz -- sleep 5 >/tmp/early 2>&1 &
	p=$!
	sleep 0.05
	kill -$sig $p
	wait $p
	RC=$?
	expect_rc "$([ $sig = KILL ] && echo 137 || echo 143)" "SIG$sig while loading: the loader dies of it"
	expect_cmp "$(grep -c '^scx_fuzz: attached' /tmp/early)" "==" 0 "SIG$sig at 0.05 s came before the attach"
	expect_state disabled "SIG$sig while loading: nothing left attached"
done
run_cmd ./scx_fuzz -- true
expect_rc 0 "after the signals while loading, the next instance attaches and runs"
echo "ok - guest script completed"; exit 0
