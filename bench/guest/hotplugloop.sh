# Detach after hotplug, again and again: each round fuzzes mixload at INTENSITY while a
# whole node (CPUs 4-7) and CPU 1 go offline and back, then detaches. A detach still
# waiting 60 s after the round is a hang: the loader's and the sched_ext kthreads'
# stacks and states are printed, then CPUs 1 and 4-7 are cycled once more (a pending
# irq_work on a CPU that went offline runs when that CPU goes offline again).
. ./lib.sh
# usage: hotplugloop.sh [ROUNDS [INTENSITY [FIRST_SEED]]]
cpus=/sys/devices/system/cpu
n=${1:-8}; level=${2:-medium}; first=${3:-1}
for i in $(seq $first $((first + n - 1))); do
./scx_fuzz --intensity $level --seed $i -- sh -c "
	./mixload -t 12 & m=\$!
	sleep 3
	for c in 4 5 6 7; do echo 0 > $cpus/cpu\$c/online || exit 1; done
	sleep 3
	for c in 4 5 6 7; do echo 1 > $cpus/cpu\$c/online || exit 1; done
	sleep 2
	echo 0 > $cpus/cpu1/online && sleep 2 && echo 1 > $cpus/cpu1/online || exit 1
	wait \$m" >/tmp/o 2>&1 &
p=$!
w=0
while kill -0 $p 2>/dev/null && [ $w -lt 60 ]; do sleep 1; w=$((w+1)); done
if kill -0 $p 2>/dev/null; then
	echo "HANG in round $i after ${w}s; state $(cat $SCX/state)"
	tail -3 /tmp/o
	echo "--- loader stack"; cat /proc/$p/stack
	for d in /proc/[0-9]*; do
		c=$(cat $d/comm 2>/dev/null)
		case "$c" in *sched_ext*|*scx*) echo "--- $c ${d#/proc/} $(sed -n 's/^State:\t//p' $d/status)"; cat $d/stack;; esac
	done
	for d in /proc/[0-9]*; do
		st=$(sed -n 's/^State:\t//p' $d/status 2>/dev/null)
		case "$st" in D*) echo "--- D: $(cat $d/comm) ${d#/proc/}"; cat $d/stack;; esac
	done
	echo l > /proc/sysrq-trigger; sleep 2
	echo "--- trying: offline/online cpu 1, 4-7"
	for c in 1 4 5 6 7; do echo 0 > $cpus/cpu$c/online; echo 1 > $cpus/cpu$c/online; done
	sleep 5
	if kill -0 $p 2>/dev/null; then echo "still hung"; else echo "UNSTUCK by hotplug"; fi
	break
else
	wait $p; echo "round $i: rc=$? $(grep -c 'unregistered from user space' /tmp/o) $(cat $SCX/state)"
fi
done
echo BENCH-DONE
