# The three examples written the way real bugs look (startorder: creator vs new
# thread; timeout: a window behind a timeout; midupdate: an inconsistency inside
# a short burst, the rival asleep): quiet under the default scheduler, found by
# scx_fuzz with no flags in most runs. Then each event decision of the defaults
# (preempt after a wake-up, after a creation, by a burst timer) fires, is
# counted and is in the trace. Runs in the guest.
# usage: events.sh [RUNS_DEFAULT [RUNS_FUZZ]]
. ./lib.sh
runs_default=${1:-10} runs_fuzz=${2:-12}
require ./scx_fuzz ./startorder ./timeout ./midupdate ./expiry ./mixload
# found in 60-100 % of runs (docs/benchmarks.md): 2 of 12 fails by chance < 4 in 10 000
for ex in startorder timeout midupdate; do
	race_check "$ex" "$runs_default" "$runs_fuzz" 2 "with no flags" --timeout 20
done

# Every decision point fires and is traced: a run that counts as failed (--fail-on)
# keeps its trace. expiry wakes its consumer often; mixload creates 20 threads.
run_cmd ./scx_fuzz --seed 3 --stats 60 --fail-on 'ok:' --trace /tmp/ev.json -- \
	sh -c './expiry -n 200 -t 1000; ./mixload -t 1 -c 4 -s 16'
expect_cmp "$(stat preempt_wake)" ">" 0 "targets preempted right after waking another target"
expect_cmp "$(stat preempt_create)" ">" 0 "targets preempted right after creating a thread"
expect_cmp "$(stat burst_timers)" ">" 0 "burst timers armed (--preempt auto)"
expect_cmp "$(stat preempted)" ">" 0 "burst timers preempted running targets"
for ev in "preempted after a wake-up" "preempted after a creation" "preempted" "delayed"; do
	expect_cmp "$(grep -c "\"name\":\"$ev\"" /tmp/ev.json)" ">" 0 "the trace shows '$ev'"
done
# --events 0 --starts 0 --preempt off: none of them
run_cmd ./scx_fuzz --seed 3 --stats 60 --events 0 --starts 0 --preempt off -- \
	sh -c './expiry -n 200 -t 1000; ./mixload -t 1 -c 4 -s 16'
expect_cmp "$(($(stat preempt_wake) + $(stat preempt_create) + $(stat burst_timers)))" "==" 0 \
	"--events 0 --starts 0 --preempt off: no event preemption, no burst timer"
expect_state disabled "detached at the end"
echo "ok - guest script completed"; exit 0
