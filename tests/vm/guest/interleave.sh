# Races whose window is straight-line code (examples/lostupdate, halfinit,
# checkact, twostep): quiet under the default scheduler and under scx_fuzz's
# wake-up delays (medium), found by --serialize with --preempt. Also checks the
# serialization itself: no target ran while another held the turn. Runs in the
# guest. usage: interleave.sh [RUNS]
. ./lib.sh
runs=${1:-20}
FUZZ="--serialize --preempt 20us:500us"
# counter NAME JSON: the sum of a counter over a campaign's runs
counter() {
	grep -o "\"$1\":[0-9]*" "$2" | cut -d: -f2 | awk '{ s += $1 } END { print s + 0 }'
}
failures() {
	sed -n 's/.*"failures":\([0-9]*\).*/\1/p' "$1"
}
for ex in lostupdate halfinit checkact twostep; do
	fails=0 t0=$(date +%s)
	for i in $(seq "$runs"); do timeout 20 ./$ex >/dev/null 2>&1 || fails=$((fails + 1)); done
	expect_cmp "$fails" "==" 0 "$ex: quiet in $runs runs under the default scheduler ($(($(date +%s) - t0)) s)"
	./scx_fuzz --repeat "$runs" --timeout 20 --json /tmp/$ex-medium.json -- ./$ex >"$OUT" 2>&1
	expect_cmp "$(failures /tmp/$ex-medium.json)" "==" 0 \
		"$ex: quiet in $runs runs under wake-up delays alone (--intensity medium)"
	expect_cmp "$(counter delayed /tmp/$ex-medium.json)" ">" 0 "$ex: medium did hold wake-ups back"
	./scx_fuzz $FUZZ --repeat "$runs" --timeout 20 --json /tmp/$ex-serial.json -- ./$ex >"$OUT" 2>&1
	grep '^scx_fuzz: run ' "$OUT" | head -n 3 | sed 's/^/    | /'
	found=$(failures /tmp/$ex-serial.json)
	expect_cmp "${found:-0}" ">" $((runs / 2)) "$ex: found in a majority of $runs runs by $FUZZ"
	expect_cmp "$(counter preempted /tmp/$ex-serial.json)" ">" 0 "$ex: targets were preempted by their timers"
	expect_cmp "$(counter handovers /tmp/$ex-serial.json)" ">" 0 "$ex: the serialized turn was handed over"
	expect_cmp "$(counter unserialized /tmp/$ex-serial.json)" "==" 0 \
		"$ex: no target ran while another held the turn"
done
expect_state disabled "detached at the end"
echo "ok - guest script completed"; exit 0
