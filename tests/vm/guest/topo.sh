# `scx_fuzz topo` must agree with the guest kernel's own view (sysfs), and the
# scheduler must attach with the plan made from it. Runs in the guest.
. ./lib.sh

run_cmd ./scx_fuzz topo
expect_rc 0 "scx_fuzz topo"
nodes=$(ls -d /sys/devices/system/node/node[0-9]* | wc -l)
expect_out "^topology: $(nproc) CPUs, .* $nodes NUMA nodes" "CPU and node counts match sysfs ($(nproc) CPUs, $nodes nodes)"
for d in /sys/devices/system/node/node[0-9]*; do
	n=${d##*node}
	list=$(cat "$d/cpulist")
	[ -n "$list" ] || continue
	expect_out "^node $n: llcs [0-9]+-[0-9]+ cpus $list\$" "node $n has CPUs $list as in sysfs"
done

# Each CPU's last-level cache: the highest-level cache index in sysfs.
for c in /sys/devices/system/cpu/cpu[0-9]*; do
	best= lvl=0
	for i in "$c"/cache/index*; do
		[ "$(cat "$i/type")" = Instruction ] && continue
		l=$(cat "$i/level")
		[ "$l" -gt "$lvl" ] && { lvl=$l; best=$i; }
	done
	cat "$best/shared_cpu_list"
done | sort -u >/tmp/llc.sysfs
sed -n 's/^llc [0-9]*: node [0-9]* cpus //p' "$OUT" | sort -u >/tmp/llc.topo
if cmp -s /tmp/llc.sysfs /tmp/llc.topo; then
	ok "LLC CPU sets match sysfs ($(wc -l </tmp/llc.topo) LLCs)"
else
	not_ok "LLC CPU sets differ: sysfs [$(tr '\n' ' ' </tmp/llc.sysfs)] topo [$(tr '\n' ' ' </tmp/llc.topo)]"
fi

run_cmd ./scx_fuzz topo --json
expect_out "\"cpus\":$(nproc),.*\"nodes\":$nodes," "--json gives the same counts"
cp "$OUT" /tmp/topo.json	# parsed when the script exits

run_cmd ./scx_fuzz -- hackbench -g 4 -l 100
expect_rc 0 "scheduler attached with the plan and ran hackbench"
expect_out "attached .*$(nproc) CPUs, [0-9]+ LLCs, $nodes nodes" "attach line reports the plan"
echo "ok - guest script completed"; exit 0
