# Runs each program under each mode, RUNS times in blocks of BLOCK runs, the
# order of modes rotating from block to block so emulator drift hits all
# alike. A mode is a line "NAME<TAB>FLAGS" of MODES; NAME "default" runs the
# program without scx_fuzz, any other runs a campaign: scx_fuzz FLAGS --repeat.
# Prints one RESULT line per run. Runs in the guest (busybox sh). With
# SCTBENCH_WRAP=1 each program is started as a harness does: sh -c './PROG'.
# FLAGS beginning "@B " run ./scx_fuzz_b, a second build (bench/sctbench --binary-b).
# usage: sctbench.sh RUNS BLOCK TIMEOUT MODES PROGRAM...
runs=$1 block=$2 limit=$3 modes=$4
shift 4
now() { cut -d' ' -f1 /proc/uptime; }
cmd() {  # PROG: how it is started
	if [ "${SCTBENCH_WRAP:-0}" = 1 ]; then echo "sh -c ./$1"; else echo "./$1"; fi
}
for p in ./scx_fuzz "$@"; do
	[ -x "./${p#./}" ] || { echo "BENCH-ERROR: ${p#./} is not in the guest"; exit 3; }
done
[ -s "$modes" ] || { echo "BENCH-ERROR: no modes in $modes"; exit 3; }
nmodes=$(grep -c . "$modes")
result() {  # PROG MODE BLOCK SEED RESULT RC SECS
	echo "RESULT prog=$1 mode=$2 block=$3 seed=$4 result=$5 rc=$6 secs=$7"
}
# default: plain runs; a hang is killed at the time limit
run_default() {  # PROG BLOCK N
	local i=0 t0 rc r
	while [ $i -lt "$3" ]; do
		i=$((i + 1))
		t0=$(now)
		# shellcheck disable=SC2046
		timeout -s KILL "$limit" $(cmd "$1") >/dev/null 2>&1
		rc=$?
		case $rc in 0) r=pass ;; 137) r=hang ;; 126|127) r=error ;; *) r=fail ;; esac
		result "$1" default "$2" - "$r" "$rc" "$(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }')"
	done
}
# a campaign: one attach, N runs, each run's line parsed from scx_fuzz's report
run_fuzz() {  # PROG MODE FLAGS BLOCK N SEED
	# shellcheck disable=SC2086
	local crc got w1 w2 rn w4 rseed res rest secs r bin=./scx_fuzz flags=$3
	case $flags in "@B "*) bin=./scx_fuzz_b flags=${flags#@B } ;; esac
	if [ "${SCTBENCH_WRAP:-0}" = 1 ]; then
		$bin $flags --seed "$6" --repeat "$5" --timeout "$limit" -- sh -c "./$1" >/tmp/sct.out 2>&1
	else
		$bin $flags --seed "$6" --repeat "$5" --timeout "$limit" -- "./$1" >/tmp/sct.out 2>&1
	fi
	crc=$?
	case $crc in 0|1) ;; *)
		echo "BENCH-WARN: $2 on $1: scx_fuzz exit $crc"; tail -n 5 /tmp/sct.out | sed 's/^/    /' ;;
	esac
	got=0
	while read -r w1 w2 rn w4 rseed res rest; do
		got=$((got + 1))
		secs=$(echo " $rest" | sed -n 's/.* in \([0-9.]*\) s$/\1/p')
		case $res in
		pass) r=pass ;; HANG:) r=hang ;; FAIL:) r=fail ;; *) r=error ;;
		esac
		result "$1" "$2" "$4" "${rseed%:}" "$r" "$crc" "${secs:-0}"
	done <<EOT
$(grep -E '^scx_fuzz: run [0-9]+ seed [0-9]+:' /tmp/sct.out)
EOT
	while [ $got -lt "$5" ]; do	# runs that never started: the scheduler failed
		got=$((got + 1))
		result "$1" "$2" "$4" - error "$crc" 0
	done
}
blocks=$(( (runs + block - 1) / block ))
b=0
while [ $b -lt $blocks ]; do
	b=$((b + 1))
	n=$block
	[ $((b * block)) -gt "$runs" ] && n=$((runs - (b - 1) * block))
	for prog in "$@"; do
		k=0
		while [ $k -lt "$nmodes" ]; do
			line=$(sed -n "$(( (k + b) % nmodes + 1 ))p" "$modes")
			k=$((k + 1))
			name=${line%%	*} flags=${line#*	}
			[ "$flags" = "$line" ] && flags=
			seed=$((b * 7919 + ${#prog} * 104729 + k))
			if [ "$name" = default ]; then
				run_default "$prog" $b $n
			else
				run_fuzz "$prog" "$name" "$flags" $b $n $seed
			fi
		done
	done
done
echo BENCH-DONE
