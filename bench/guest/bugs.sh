# Hit rates of the example races: every example under the default scheduler
# and under scx_fuzz at each intensity, interleaved run by run (the mode order
# rotates each round) so drift in the emulator hits all modes alike.
# Prints one RESULT line per run. Runs in the guest.
# usage: bugs.sh ROUNDS [EXAMPLES [MODES]] (each a quoted, space-separated list)
rounds=${1:-10}
examples=${2:-"expiry overbook lazyinit refcount phases deadlock"}
modes=${3:-"default low medium high windows"}
now() { cut -d' ' -f1 /proc/uptime; }
run() {  # MODE EXAMPLE SEED: exit status of one run
	case $1 in
	default) timeout 20 ./$2 >/dev/null 2>&1 ;;
	windows) ./scx_fuzz --mode windows --seed "$3" --timeout 10 -- ./$2 >/dev/null 2>&1 ;;
	serial) ./scx_fuzz --serialize --preempt 20us:500us --seed "$3" --timeout 10 -- ./$2 >/dev/null 2>&1 ;;
	pct[1-8]) ./scx_fuzz --mode pct --depth "${1#pct}" --pct-steps "$(eval echo \$steps_$2)" --seed "$3" \
		--timeout 10 -- ./$2 >/dev/null 2>&1 ;;
	baseline) ./scx_fuzz_baseline --intensity medium --seed "$3" --timeout 10 -- ./$2 >/dev/null 2>&1 ;;
	*) ./scx_fuzz --intensity "$1" --seed "$3" --timeout 10 -- ./$2 >/dev/null 2>&1 ;;
	esac
}
# --mode pct draws its change points over a run's steps: measure them first, as
# a campaign would (the most of 3 runs), so each single-run pct sample uses them.
case " $modes " in *" pct"[1-8]" "*)
	for ex in $examples; do
		rm -f /tmp/steps.json
		./scx_fuzz --mode pct --seed 1 --repeat 3 --timeout 10 --json /tmp/steps.json -- ./$ex >/dev/null 2>&1
		steps=$(grep -o '"pct_steps":[0-9]*' /tmp/steps.json 2>/dev/null | cut -d: -f2 | sort -n | tail -n 1)
		[ "${steps:-0}" -gt 0 ] || steps=1000	# none measured: the loader's own default
		eval steps_$ex=$steps
		echo "STEPS example=$ex pct_steps=$steps"
	done ;;
esac
for ex in $examples; do
	[ -x "./$ex" ] || { echo "BENCH-ERROR: $ex is not in the guest"; exit 3; }
done
for r in $(seq "$rounds"); do
	order=$(echo $modes | awk -v k="$r" '{ for (i = 0; i < NF; i++) printf "%s ", $(((i + k) % NF) + 1) }')
	for ex in $examples; do
		for mode in $order; do
			seed=$((r * 7919 + ${#ex} * 104729))
			t0=$(now)
			run "$mode" "$ex" "$seed"
			rc=$?
			t1=$(now)
			# 0 pass; 1 the race fired; 124/137/143 or scx_fuzz's 124 a hang; 3 scheduler trouble
			# a slowed-down run cut by the time limit did not show the race (but a deadlock did)
			# 2, 126, 127: the example could not run (bad usage, missing): not a hit
			case $rc in 0) res=pass ;; 2|3|126|127) res=error ;; 124) [ "$ex" = deadlock ] && res=fail || res=timeout ;;
			*) res=fail ;; esac
			echo "RESULT example=$ex mode=$mode round=$r seed=$seed result=$res rc=$rc secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')"
		done
	done
done
echo BENCH-DONE
