# A kernel without sched_ext: one clear line, non-zero exit.
. ./lib.sh

if [ -d $SCX ]; then not_ok "this kernel must lack sched_ext ($SCX exists)"; fi
run_cmd ./scx_fuzz -- true
expect_rc 3 "no sched_ext: exit status 3"
expect_out "^scx_fuzz: this kernel \\(.*\\) has no sched_ext" "no sched_ext: one clear line"
echo "ok - guest script completed"; exit 0
