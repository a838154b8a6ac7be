# Every example race is quiet under the default scheduler and found by
# scx_fuzz at --intensity medium (the regression guard of the fuzzer's power;
# bench/ measures hit rates properly). Runs in the guest.
# usage: examples.sh [RUNS_DEFAULT [RUNS_FUZZ]]
. ./lib.sh
runs_default=${1:-10} runs_fuzz=${2:-7}
require ./scx_fuzz ./expiry ./overbook ./lazyinit ./refcount ./phases ./deadlock
for ex in expiry overbook lazyinit refcount phases deadlock; do
	fails=0
	for i in $(seq "$runs_default"); do timeout 20 ./$ex >/dev/null 2>&1 || fails=$((fails + 1)); done
	expect_cmp "$fails" "==" 0 "$ex: quiet in $runs_default runs under the default scheduler"
	./scx_fuzz --repeat "$runs_fuzz" --timeout 10 --seed 1 --json /tmp/$ex.json -- ./$ex >"$OUT" 2>&1
	found=$(sed -n 's/.*"failures":\([0-9]*\).*/\1/p' /tmp/$ex.json)
	grep '^scx_fuzz: run ' "$OUT" | sed 's/^/    | /'
	expect_cmp "${found:-0}" ">=" $(((runs_fuzz + 1) / 2)) "$ex: found in most of $runs_fuzz runs at --intensity medium"
done
expect_state disabled "detached at the end"
echo "ok - guest script completed"; exit 0
