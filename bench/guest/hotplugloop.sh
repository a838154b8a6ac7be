# Detach after hotplug, again and again: each round fuzzes mixload at INTENSITY while a
# whole node (CPUs 4-7) and CPU 1 go offline and back, then detaches. A detach still
# waiting 60 s after the round is a hang: the loader's and the sched_ext kthreads'
# stacks and states are printed, then CPUs 1 and 4-7 are cycled once more (a pending
# irq_work on a CPU that went offline runs when that CPU goes offline again).
# After each detach, CPU 3 goes offline and back under the default scheduler; 30 s
# without it finishing is a hang too (blocked tasks dumped; docs/testing.md).
. ./lib.sh
# usage: hotplugloop.sh [ROUNDS [INTENSITY [FIRST_SEED]]]
cpus=/sys/devices/system/cpu
n=${1:-8}; level=${2:-medium}; first=${3:-1}
# cycle_after_detach ROUND: CPU 3 offline and online with no BPF scheduler attached
cycle_after_detach() {
	set_online 3 0 30 && set_online 3 1 30
	case $? in
	0) echo "round $1: cpu3 cycled after detach" ;;
	2) echo "HANG-AFTER-DETACH in round $1"; return 1 ;;
	*) echo "round $1: cpu3 hotplug after detach failed (not hung)" ;;
	esac
}
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
	dump_blocked
	echo "--- trying: offline/online cpu 1, 4-7"
	for c in 1 4 5 6 7; do echo 0 > $cpus/cpu$c/online; echo 1 > $cpus/cpu$c/online; done
	sleep 5
	if kill -0 $p 2>/dev/null; then echo "still hung"; hung=1; else echo "UNSTUCK by hotplug"; fi
	break
else
	wait $p; echo "round $i: rc=$? $(grep -c 'unregistered from user space' /tmp/o) $(cat $SCX/state)"
	cycle_after_detach $i || { hung=1; break; }
fi
done
echo BENCH-DONE
# a guest whose hotplug hung cannot power off: reboot at once (the rig's QEMU then exits)
[ -n "${hung:-}" ] && { sleep 1; echo b > /proc/sysrq-trigger; }
exit 0
