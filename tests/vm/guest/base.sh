# A mixed load (hackbench, CPU-bound and sleep-heavy threads, more threads than
# CPUs) for a fixed time under scx_fuzz with fuzzing off. Every task must finish,
# and the counters must show a scalable scheduler. Runs in the guest.
# With "default", the same load runs under the default scheduler alone (the
# baseline bench/base-loop compares failures against).
# usage: base.sh [SECONDS [scx_fuzz|default]]
. ./lib.sh
dur=${1:-60} sched=${2:-scx_fuzz}
n=$(nproc)
[ "$sched" = default ] && set -- sh -c || set -- ./scx_fuzz --intensity off --stats 10 -- sh -c

run_cmd "$@" "
	end=\$((\$(date +%s) + $dur))
	( while [ \$(date +%s) -lt \$end ]; do hackbench -g $((n / 16 + 1)) -l 50 >/dev/null || exit 1; done
	  echo hackbench-loop-done ) &
	hb=\$!
	./mixload -t $dur -c $n -s $n || exit 1
	wait \$hb"
expect_rc 0 "${dur}s mixed load on $n CPUs under $sched"
expect_out '^hackbench-loop-done$' "hackbench loop finished"
expect_out "finished_with_progress=$((2 * n)) " "all $((2 * n)) mixload threads ran and finished"
[ "$sched" = default ] && { echo "ok - guest script completed"; exit 0; }
late=$(sed -n 's/.*max_late_ms=\([0-9.]*\).*/\1/p' "$OUT")
over=$(sed -n 's/.*overrun_s=\([0-9.]*\).*/\1/p' "$OUT")
# Generous bounds: the emulated machine is slow; the watchdog's 10 s is the hard limit.
expect_cmp "${late:-99999}" "<" 10000 "no runnable sleeper waited 10 s or more for a CPU (ms)"
expect_cmp "${over:-999}" "<" 20 "the last thread finished within 20 s of the deadline (s)"
expect_cmp "$(stat local_pct)" ">=" 50 "most dispatches stay in the LLC (%)"
steals=$(( $(stat steal_node) + $(stat steal_remote) ))
expect_cmp "$steals" ">" 0 "CPUs stole work across LLCs"
expect_cmp "$(stat per_steal)" ">" 1 "steals move more than one task on average"
expect_state disabled "detached after the load"
echo "ok - guest script completed"; exit 0
