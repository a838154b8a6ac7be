# The BPF side reports an error: the kernel ejects the scheduler, and scx_fuzz
# must say why and exit non-zero while the target still completes.
. ./lib.sh

run_cmd ./scx_fuzz --test-fault bpf-error -- sh -c 'sleep 2; echo target-done'
expect_rc 3 "ejected scheduler: exit status 3"
expect_out '^scx_fuzz: the kernel ejected the scheduler' "ejection reported"
expect_out '^scx_fuzz: exit: .*injected test fault' "exit reason from ops.exit printed"
expect_out '^target-done$' "the target ran to completion"
expect_out '^scx_fuzz: target exited with status 0$' "the target's status is still reported"
expect_state disabled "back on the default scheduler"
echo "ok - guest script completed"; exit 0
