# The cost of --points: the time of one point hit (a trap, the handler, our
# programs) from tests/progs/hitloop with and without a point on its function,
# and the slowdown of a large dynamic program (the host's CPython running
# bench/guest/pyload.py) under --points auto against the same scx_fuzz run
# without points, ROUNDS interleaved rounds. Prints RESULT lines. Runs in the guest.
# usage: points.sh PYTHON ROUNDS SECONDS
py=$1 rounds=${2:-3} secs=${3:-5}
per_call() { sed -n 's/.*, \([0-9.]*\) us per call/\1/p' "$1" | tail -n1; }
rate() { sed -n 's/^pyload: \([0-9]*\) items\/s/\1/p' "$1" | tail -n1; }
for r in $(seq "$rounds"); do
	./hitloop -n 200000 >/tmp/h0 2>&1
	./scx_fuzz --seed "$r" -- ./hitloop -n 200000 >/tmp/h1 2>&1
	./scx_fuzz --seed "$r" --points funcs --point-prob 0 --point-rate 100000000 -- ./hitloop -n 200000 >/tmp/h2 2>&1
	echo "RESULT hit round=$r plain_us=$(per_call /tmp/h0) fuzz_us=$(per_call /tmp/h1) points_us=$(per_call /tmp/h2)"
	"$py" pyload.py "$secs" >/tmp/p0 2>&1
	./scx_fuzz --seed "$r" -- "$py" pyload.py "$secs" >/tmp/p1 2>&1
	./scx_fuzz --seed "$r" --points auto -- "$py" pyload.py "$secs" >/tmp/p2 2>&1
	grep -E '^scx_fuzz: [0-9]+ points in|dropped' /tmp/p2 | tail -n 2 | sed 's/^/    /'
	echo "RESULT py round=$r plain=$(rate /tmp/p0) fuzz=$(rate /tmp/p1) points=$(rate /tmp/p2)"
done
echo BENCH-DONE
