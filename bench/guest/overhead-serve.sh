# Guest side of bench/overhead-serve: a steady service (6 threads) in a systemd-style
# cgroup all along; non-target workloads beside it under the default scheduler alone,
# under `scx_fuzz serve` with intensity off (attached, nothing fuzzed), at its
# defaults, and never backing off (cpu_pressure 100), interleaved round by round.
# One RESULT line a measurement.
# usage: overhead-serve.sh ROUNDS SECONDS
. ./lib.sh
rounds=${1:-5} secs=${2:-10}
CG=/sys/fs/cgroup/system.slice/svc.service
mkdir -p $CG
sh -c "echo \$\$ > $CG/cgroup.procs; exec ./mixload -t 100000 -c 2 -s 4" >/dev/null 2>&1 &
SVC=$!
for p in off:40:20 low:40:20 low:100:99; do
	i=${p%%:*} p=${p#*:}
	printf '[target]\ncgroup = system.slice/svc.service\n[fuzz]\nintensity = %s\n[backoff]\ncpu_pressure = %s\nresume_below = %s\n[output]\nmetrics = /tmp/m-%s.prom\ninterval_s = 1\nflight_events = 0\n' \
		"$i" "${p%:*}" "${p#*:}" "$i${p%:*}" >/tmp/serve-$i${p%:*}.conf
done
metric() { sed -n "s/^scx_fuzz_$1{[^}]*} //p" "$2"; }
result() { echo "RESULT round=$2 mode=$1 workload=$3 value=${4:-0} unit=$5"; }

measure() {  # MODE ROUND
	v=$(./mixload -t "$secs" -c 2 -s 0 | sed -n 's/.*cpu_iters=\([0-9]*\).*/\1/p')
	result "$1" "$2" cpu "$(awk -v v="${v:-0}" -v s="$secs" 'BEGIN { printf "%.0f", v / s }')" iters/s
	v=$(./pingpong -t "$secs" -p 2 | sed -n 's/.*rate=//p')
	result "$1" "$2" pipe "$v" roundtrips/s
	t=$(hackbench -g 1 -l 300 2>&1 | sed -n 's/^Time: //p')
	result "$1" "$2" hackbench "$(awk -v t="${t:-0}" 'BEGIN { if (t > 0) printf "%.3f", 1 / t }')" runs/s
}

under() {  # MODE ROUND
	case $1 in
	default) measure "$@"; return ;;
	off) conf=/tmp/serve-off40.conf m=/tmp/m-off40.prom ;;
	serve) conf=/tmp/serve-low40.conf m=/tmp/m-low40.prom ;;
	serve-full) conf=/tmp/serve-low100.conf m=/tmp/m-low100.prom ;;
	esac
	rm -f $m	# the last round's file would give a stale starting count
	./scx_fuzz serve --config $conf >/tmp/serve.log 2>&1 &
	s=$!
	wait_state enabled 30 || echo "not ok - serve did not attach"
	i=0; while [ ! -s $m ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
	d0=$(metric delayed_total $m)
	measure "$@"
	echo "INFO round=$2 mode=$1 unfuzzed=$(metric unfuzzed_ratio $m) pressure=$(metric cpu_pressure $m)" \
		"delayed=$(( $(metric delayed_total $m) - ${d0:-0} )) share=$(metric delay_share $m)" \
		"backoff_steps=$(grep -c back-off /tmp/serve.log)"
	kill -TERM $s
	wait $s || echo "not ok - serve exited $?"
}

r=1
while [ $r -le "$rounds" ]; do
	# each mode takes each place in turn, so no place in a round favours one
	case $((r % 4)) in
	1) order="default off serve serve-full" ;;
	2) order="serve-full serve off default" ;;
	3) order="off serve-full default serve" ;;
	0) order="serve default serve-full off" ;;
	esac
	for mode in $order; do under $mode $r; done
	r=$((r + 1))
done
kill $SVC
echo "BENCH-DONE"
