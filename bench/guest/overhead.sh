# Guest side of bench/overhead: the same workloads under the default
# scheduler and under scx_fuzz in each mode, interleaved round by round so
# drift in the emulated machine hits every mode alike. The workload is the
# fuzzing target. Then two ping-pongs side by side, one targeted and one not,
# to separate the target's slowdown from everyone else's. Prints one RESULT
# line a measurement. usage: overhead.sh ROUNDS SECONDS "MODES"
rounds=${1:-3} secs=${2:-5} modes=${3:-default base off low medium high global}
split_modes="default off low medium"
n=$(nproc)
nodes=$(ls -d /sys/devices/system/node/node[0-9]* | wc -l)
hb_groups=$((n / 8 + 1))
hb_loops=$((400 / hb_groups))	# about the same number of messages at every size

run_mode() {  # MODE CMD...: run CMD under the mode, output on stdout
	mode=$1; shift
	case $mode in
	default) "$@" ;;
	base)	# scx_fuzz attached with no target: the workload is not even tracked
		./scx_fuzz --stats 3600 >/dev/null 2>&1 &
		fuzz=$!
		i=0
		while [ "$(cat /sys/kernel/sched_ext/state)" != enabled ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
		"$@"
		kill -INT $fuzz
		wait $fuzz ;;
	global) ./scx_fuzz --intensity off --global-queue -- "$@" 2>/dev/null ;;
	*) ./scx_fuzz --intensity "$mode" --seed 1 -- "$@" 2>/dev/null ;;
	esac
}

result() {  # MODE ROUND WORKLOAD VALUE UNIT
	echo "RESULT cpus=$n nodes=$nodes round=$2 mode=$1 workload=$3 value=${4:-0} unit=$5"
}

rate() { sed -n 's/.*rate=//p' "$1"; }

# Two ping-pongs at once: the first is the target, the second is not. Under
# scx_fuzz the second starts once the scheduler is attached.
split_run() {  # MODE ROUND
	pairs=$((n / 4 + 1))
	if [ "$1" = default ]; then
		./pingpong -t "$secs" -p $pairs >/tmp/target.out & t=$!
	else
		./scx_fuzz --intensity "$1" --seed 1 -- ./pingpong -t "$secs" -p $pairs >/tmp/target.out 2>/dev/null & t=$!
		i=0
		while [ "$(cat /sys/kernel/sched_ext/state)" != enabled ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	fi
	./pingpong -t "$secs" -p $pairs >/tmp/other.out
	wait $t
	result "$1" "$2" pipe_target "$(rate /tmp/target.out)" roundtrips/s
	result "$1" "$2" pipe_other "$(rate /tmp/other.out)" roundtrips/s
}

r=1
while [ $r -le "$rounds" ]; do
	for mode in $modes; do
		t=$(run_mode $mode hackbench -g $hb_groups -l $hb_loops | sed -n 's/^Time: //p')
		result $mode $r hackbench "$(awk -v t="${t:-0}" 'BEGIN { if (t > 0) printf "%.3f", 1 / t }')" runs/s
		v=$(run_mode $mode ./pingpong -t "$secs" -p $((n / 2 + 1)) | sed -n 's/.*rate=//p')
		result $mode $r pipe "$v" roundtrips/s
		v=$(run_mode $mode ./mixload -t "$secs" -c $n -s 0 | sed -n 's/.*cpu_iters=\([0-9]*\).*/\1/p')
		result $mode $r cpu "$(awk -v v="${v:-0}" -v s="$secs" 'BEGIN { printf "%.0f", v / s }')" iters/s
	done
	for mode in $split_modes; do
		case " $modes " in *" $mode "*) split_run $mode $r ;; esac
	done
	r=$((r + 1))
done
echo "BENCH-DONE"
