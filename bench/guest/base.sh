# Guest side of bench/base: the same workloads under the default scheduler,
# scx_fuzz and scx_fuzz --global-queue, interleaved round by round so drift in
# the emulated machine hits every mode alike. Prints one RESULT line a run.
# usage: base.sh ROUNDS SECONDS
rounds=${1:-3} secs=${2:-5}
n=$(nproc)
hb_groups=$((n / 8 + 1))
hb_loops=$((400 / hb_groups))	# about the same number of messages at every size

run_mode() {  # MODE CMD...: run CMD under the mode, output on stdout
	mode=$1; shift
	case $mode in
	default) "$@" ;;
	scx_fuzz) ./scx_fuzz --intensity off -- "$@" 2>/dev/null ;;
	global) ./scx_fuzz --intensity off --global-queue -- "$@" 2>/dev/null ;;
	esac
}

result() {  # MODE ROUND WORKLOAD VALUE UNIT
	echo "RESULT cpus=$n round=$2 mode=$1 workload=$3 value=${4:-0} unit=$5"
}

r=1
while [ $r -le "$rounds" ]; do
	for mode in default scx_fuzz global; do
		t=$(run_mode $mode hackbench -g $hb_groups -l $hb_loops | sed -n 's/^Time: //p')
		result $mode $r hackbench "$(awk -v t="${t:-0}" 'BEGIN { if (t > 0) printf "%.3f", 1 / t }')" runs/s
		v=$(run_mode $mode ./pingpong -t "$secs" -p $((n / 2 + 1)) | sed -n 's/.*rate=//p')
		result $mode $r pipe "$v" roundtrips/s
		v=$(run_mode $mode ./mixload -t "$secs" -c $n -s 0 | sed -n 's/.*cpu_iters=\([0-9]*\).*/\1/p')
		result $mode $r cpu "$(awk -v v="${v:-0}" -v s="$secs" 'BEGIN { printf "%.0f", v / s }')" iters/s
	done
	r=$((r + 1))
done
echo "BENCH-DONE"
