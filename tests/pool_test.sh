#!/bin/bash
# tests/pool.sh on the host, with groups made of sleeps: two at a time, longest
# first, each group's lines together, a group marked alone has no neighbour, a
# group past its limit is killed with all its processes and the rest go on.
set -u
here=$(cd "$(dirname "$0")" && pwd)
LOG_DIR=$(mktemp -d)
trap 'rm -rf "$LOG_DIR"' EXIT
pass=0 fail=0
count() {
	local line
	while IFS= read -r line; do
		echo "$line"
		case $line in "ok "*) pass=$((pass + 1)) ;; "not ok "*) fail=$((fail + 1)) ;; esac
	done
	echo "$1 ${2}s" >>"$LOG_DIR/times.txt"
}
POOL_JOBS=2 POOL_SLACK=4
. "$here/pool.sh"
mark=$LOG_DIR/starts	# each group writes its name here when it starts
pool_add 1 short "echo short >>$mark; echo ok - short 1; sleep 1; echo ok - short 2"
pool_add 4 long "echo long >>$mark; echo ok - long 1; sleep 4; echo not ok - long 2"
pool_add_alone 1 alone "echo alone >>$mark; ps -eo args | grep -c '[p]ool-sleep-' >$LOG_DIR/alone-saw; echo ok - alone"
pool_add 0 hang "echo hang >>$mark; exec -a pool-sleep-hang sleep 600"
pool_add 2 sleeper "echo sleeper >>$mark; bash -c 'exec -a pool-sleep-marker sleep 2'; echo ok - sleeper"
out=$(pool_run)

check() { if eval "$1"; then echo "ok - [pool] $2"; else echo "not ok - [pool] $2"; fi; }
# the two longest start together (in either order), then the rest, the one marked alone last
check '[ "$(head -n2 "$mark" | sort | tr "\n" " ")$(tail -n+3 "$mark" | tr "\n" " ")" = "long sleeper short hang alone " ]' \
	"groups start longest first, the one marked alone last ($(tr '\n' ' ' <"$mark"))"
check '[ "$(wc -l <"$LOG_DIR/times.txt")" = 5 ] && grep -q "^hang [0-9]*s$" "$LOG_DIR/times.txt"' \
	"every group's time is in times.txt"
count all 0 <<<"$out" >/dev/null
check '[ "$pass" = 5 ] && [ "$fail" = 2 ]' "every line of every group counted: 5 ok, 2 not ok (got $pass, $fail)"
check 'diff <(grep -A2 "^== long" <<<"$out" | tail -n2) <(printf "ok - long 1\nnot ok - long 2\n")' \
	"a group's lines are printed together, in its order"
check 'grep -q "^not ok - \[hang\] timed out after [0-9]*s and was killed" <<<"$out"' \
	"a group past its limit is reported by name"
check '! pgrep -f pool-sleep-hang >/dev/null' "its processes are gone"
check '[ "$(cat "$LOG_DIR/alone-saw")" = 0 ]' "the group marked alone ran beside no other group"
pkill -f pool-sleep-hang 2>/dev/null
exit 0
