# Every example race is quiet under the default scheduler and found by
# scx_fuzz at --intensity medium (the regression guard of the fuzzer's power;
# bench/ measures hit rates properly). Runs in the guest.
# usage: examples.sh [RUNS_DEFAULT [RUNS_FUZZ]]
. ./lib.sh
runs_default=${1:-10} runs_fuzz=${2:-7}
require ./scx_fuzz ./expiry ./overbook ./lazyinit ./refcount ./phases ./deadlock
# found in 90-100 % of runs (docs/benchmarks.md): 3 of 7 fails by chance < 2 in 10 000
for ex in expiry overbook lazyinit refcount phases deadlock; do
	race_check "$ex" "$runs_default" "$runs_fuzz" 3 "at --intensity medium" --timeout 10
done
expect_state disabled "detached at the end"
echo "ok - guest script completed"; exit 0
