#!/bin/bash
# The real binary on the host, for what needs no sched_ext: help, version, bad
# flags, and refusing to run without root. Prints "ok"/"not ok" lines.
bin=${1:-build/scx_fuzz}

check() {  # WANT_RC REGEX WHAT CMD...
	local want=$1 re=$2 what=$3 out rc
	shift 3
	out=$("$@" 2>&1)
	rc=$?
	if [ "$rc" = "$want" ] && grep -qE -- "$re" <<<"$out"; then
		echo "ok - [cli] $what"
	else
		echo "not ok - [cli] $what (exit $rc, want $want; output: ${out:0:200})"
	fi
}

check 0 '^usage: scx_fuzz' "--help prints usage" "$bin" --help
check 0 '^scx_fuzz [0-9]+\.[0-9]+' "--version" "$bin" --version
check 2 "^scx_fuzz: invalid option: '--frobnicate'" "unknown flag: exit 2, one line" "$bin" --frobnicate -- true
check 2 "invalid --slice" "bad --slice value: exit 2" "$bin" --slice x -- true
# Fuzzing flags: checked before anything touches the kernel.
check 2 "^scx_fuzz: invalid --intensity \(off, low, medium, high, extreme\): 'wild'" \
	"unknown --intensity: exit 2" "$bin" --intensity wild -- true
check 2 "^scx_fuzz: --delay maximum 5s could trip the kernel's 10 s watchdog: at most 1s$" \
	"a delay that could trip the watchdog is refused" "$bin" --delay 1ms:5s -- true
check 2 "^scx_fuzz: invalid --delay \(MIN:MAX" "--delay with MIN > MAX: exit 2" "$bin" --delay 5ms:1ms -- true
check 2 "^scx_fuzz: --pid and a command contradict each other" "--pid with a command: exit 2" \
	"$bin" --pid 1 -- true
check 2 "^scx_fuzz: no process with pid 4194000$" "--pid of no process: exit 2" "$bin" --pid 4194000
check 2 "^scx_fuzz: --budget 1% allows at most 10ms of delay per second of run time, less than the --delay minimum$" \
	"--budget too small for the --delay minimum: exit 2" "$bin" --budget 1 --delay 20ms:50ms -- true
check 2 "^scx_fuzz: invalid --comm" "--comm longer than a thread name: exit 2" \
	"$bin" --comm abcdefghijklmnopq -- true
check 2 "^scx_fuzz: invalid --slice range" "--slice MIN:MAX malformed: exit 2" "$bin" --slice 1ms: -- true
check 2 "^scx_fuzz: --slice MIN:MAX must lie within 20us:1s$" "--slice range below 20us: exit 2" \
	"$bin" --slice 1us:1ms -- true
# Runner flags.
check 2 "^scx_fuzz: invalid --repeat \(runs, 1..10\^9\): '0'" "--repeat 0: exit 2" "$bin" --repeat 0 -- true
check 2 "^scx_fuzz: --until-failure and --until-success contradict each other$" \
	"--until-failure with --until-success: exit 2" "$bin" --until-failure --until-success -- true
check 2 "^scx_fuzz: invalid --timeout" "--timeout not a number: exit 2" "$bin" --timeout soon -- true
check 2 "^scx_fuzz: invalid --fail-on \(an extended regular expression\): '\(oops'" \
	"--fail-on with a bad regex: exit 2" "$bin" --fail-on '(oops' -- true
check 2 "^scx_fuzz: --repeat, --until-\*, --timeout, --fail-on and --error-command need a command" \
	"--until-failure without a command: exit 2" "$bin" --until-failure
check 2 "^scx_fuzz: invalid --error-check-interval \(seconds, 0.1..86400\): '0'" \
	"--error-check-interval 0: exit 2" "$bin" --error-check-interval 0 --error-command true -- true
check 2 "^scx_fuzz: cannot write the --json file /no/such/dir/runs.json: No such file or directory$" \
	"--json in a missing directory: exit 2 before anything runs" "$bin" --json /no/such/dir/runs.json -- true
check 2 "^scx_fuzz: cannot write the --trace file /tmp: Is a directory$" \
	"--trace naming a directory: exit 2" "$bin" --trace /tmp -- true
check 2 "^scx_fuzz: invalid --timeout" "--timeout below 0: exit 2" "$bin" --timeout -1 -- true
check 2 "^scx_fuzz: serve takes --config FILE and nothing else$" "serve without --config: exit 2" "$bin" serve
check 2 "^scx_fuzz: cannot read /nonexistent.conf: No such file or directory$" \
	"serve with a missing config: exit 2" "$bin" serve --config /nonexistent.conf
conf=$(mktemp)
printf '[target]\ncgroup = a\n[backoff]\ncpu_pressure = 200\n' >"$conf"
check 2 "^scx_fuzz: $conf:4: bad value '200' for cpu_pressure \\(a percentage, 0 to 100\\)$" \
	"serve with a bad value: exit 2 naming file and line" "$bin" serve --config "$conf"
rm -f "$conf"
inst=$(mktemp -d)
if make -s install PREFIX="$inst" SYSCONFDIR="$inst/etc" >/dev/null 2>&1 && [ -x "$inst/bin/scx_fuzz" ] &&
	[ -f "$inst/share/man/man1/scx_fuzz.1" ]; then
	echo "ok - [cli] make install PREFIX=... installs the binary and the man page"
else
	echo "not ok - [cli] make install PREFIX=... did not install both files"
fi
if command -v man >/dev/null; then
	check 0 "EXIT STATUS" "the man page renders" env MANWIDTH=80 man -l "$inst/share/man/man1/scx_fuzz.1"
fi
rm -rf "$inst"
if command -v setpriv >/dev/null; then
	check 3 '^scx_fuzz: must run as root' "not root: exit 3, one line" \
		setpriv --reuid=65534 --regid=65534 --clear-groups "$bin" -- true
else
	echo "not ok - [cli] not root: setpriv (util-linux) missing"
fi
n=$("$bin" --help | wc -l)
if [ "$n" -le 24 ]; then echo "ok - [cli] --help fits a screen ($n lines)"; else echo "not ok - [cli] --help is $n lines"; fi

# Topology subcommand (no root or sched_ext needed).
check 0 '^topology: 1024 CPUs, 512 cores, 64 LLCs \(L3\), 16 NUMA nodes, 8 packages$' \
	"topo --synthetic: 1024 CPUs, 16 nodes, 64 LLCs" "$bin" topo --synthetic "pack:8 numa:2 l3:4 core:8 pu:2"
check 0 '^\{"cpus":1024,"cores":512,"llcs":64,"llc_kind":"L3","nodes":16,' \
	"topo --json: same numbers" "$bin" topo --json --synthetic "pack:8 numa:2 l3:4 core:8 pu:2"
check 2 "^scx_fuzz: topo: invalid synthetic topology description 'numa:lots'$" \
	"topo --synthetic garbage: exit 2, one line" "$bin" topo --synthetic "numa:lots"
check 2 "^scx_fuzz: topo: cannot read topology XML '/nonexistent.xml'" \
	"topo --xml unreadable: exit 2, one line" "$bin" topo --xml /nonexistent.xml
printf 'not xml at all' >/tmp/scx_fuzz-bad.xml
check 2 "^scx_fuzz: topo: hwloc cannot load the topology from /tmp/scx_fuzz-bad.xml" \
	"topo --xml garbage: exit 2" "$bin" topo --xml /tmp/scx_fuzz-bad.xml
rm -f /tmp/scx_fuzz-bad.xml
check 0 '^node 0: llcs 0-7 cpus 0-127$' "topo --xml fixture" "$bin" topo --xml tests/fixtures/amd-2socket-8llc-per-node.xml
