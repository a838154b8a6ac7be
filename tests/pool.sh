# A pool of test groups for tests/run: up to POOL_JOBS groups at a time, longest
# first, each group's output printed whole when it ends. Sourced; needs count().
#
#   pool_add EST NAME CMD      a group: its usual time in seconds (orders the pool
#                              and sets its limit, 2 x EST + 300 s), a name, a command
#   pool_add_alone EST NAME CMD   the same, but run after the rest, with no neighbour
#   pool_run                   run them all; returns when every group has ended
# POOL_JOBS: groups at a time (2); POOL_SLACK: seconds added to each limit (300).
#
# A group still running at its limit is killed with its whole process group (its
# guests too) and reported by name, with its log; the rest go on.
POOL_JOBS=${POOL_JOBS:-2}
pool_est=() pool_name=() pool_cmd=() pool_alone=()

pool_add() { pool_est+=("$1"); pool_name+=("$2"); pool_cmd+=("$3"); pool_alone+=(0); }
pool_add_alone() { pool_est+=("$1"); pool_name+=("$2"); pool_cmd+=("$3"); pool_alone+=(1); }

# The queue: shared groups longest first, then the ones that run alone.
pool_order() {
	local i
	for i in "${!pool_name[@]}"; do echo "${pool_alone[i]} ${pool_est[i]} $i"; done |
		sort -k1,1n -k2,2nr | awk '{ print $3 }'
}

# pool_report I done|timeout SECS: print group I's output whole and count its lines.
pool_report() {
	local i=$1 rc=$2 secs=$3 out=$LOG_DIR/group-${pool_name[$1]}.out
	echo "== ${pool_name[i]} (${secs}s)"
	if [ "$rc" = timeout ]; then
		echo "not ok - [${pool_name[i]}] timed out after ${secs}s and was killed (log: $out)" >>"$out"
	fi
	count "${pool_name[i]}" "$secs" <"$out"
}

pool_run() {
	local queue=() pid i tick done_pid now limit
	declare -A running=() started=()
	mapfile -t queue < <(pool_order)
	mkdir -p "$LOG_DIR"
	while [ ${#queue[@]} -gt 0 ] || [ ${#running[@]} -gt 0 ]; do
		# Start what fits: a group that runs alone waits for an empty pool and fills it.
		while [ ${#queue[@]} -gt 0 ] && [ ${#running[@]} -lt "$POOL_JOBS" ]; do
			i=${queue[0]}
			[ "${pool_alone[i]}" = 1 ] && [ ${#running[@]} -gt 0 ] && break
			queue=("${queue[@]:1}")
			setsid bash -c "${pool_cmd[i]}" >"$LOG_DIR/group-${pool_name[i]}.out" 2>&1 </dev/null &
			running[$!]=$i started[$!]=$SECONDS
			[ "${pool_alone[i]}" = 1 ] && break
		done
		sleep 5 &
		tick=$!
		wait -n -p done_pid "${!running[@]}" "$tick"
		kill "$tick" 2>/dev/null
		wait "$tick" 2>/dev/null
		now=$SECONDS
		for pid in "${!running[@]}"; do
			i=${running[$pid]}
			if ! kill -0 "$pid" 2>/dev/null || [ "$pid" = "$done_pid" ]; then
				wait "$pid" 2>/dev/null
				pool_report "$i" done $((now - started[$pid]))
				unset "running[$pid]" "started[$pid]"
				continue
			fi
			limit=$((2 * pool_est[i] + ${POOL_SLACK:-300}))
			if ((now - started[$pid] > limit)); then
				kill -TERM -- -"$pid" 2>/dev/null
				sleep 5
				kill -KILL -- -"$pid" 2>/dev/null
				wait "$pid" 2>/dev/null
				pool_report "$i" timeout $((now - started[$pid]))
				unset "running[$pid]" "started[$pid]"
			fi
		done
	done
}
