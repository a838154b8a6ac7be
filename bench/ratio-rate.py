#!/usr/bin/env python3
"""The chance that a best-of-K timing ratio (alone / beside) falls below its bound.

Given every round's time alone and beside, it counts exactly over all ways to
draw K rounds of each (without replacement): the test takes the smallest of
each K and fails when smallest-alone / smallest-beside < bound. Resampling
of the rounds says how far that estimate can be off (it cannot see rates far
below 1 / C(rounds, K)).
"""
import argparse
import math
import random


def comb(n, k):
    return math.comb(n, k) if 0 <= k <= n else 0


def exact(alone, beside, k, bound):
    """P(min of K alone / min of K beside < bound) over subsets of the rounds."""
    a = sorted(alone)
    n, m = len(a), len(beside)
    total = 0.0
    for i, t in enumerate(a):  # t is the smallest of the K drawn: the other K-1 are above it
        p_min = comb(n - i - 1, k - 1) / comb(n, k)
        above = sum(1 for b in beside if b > t / bound)
        total += p_min * comb(above, k) / comb(m, k)
    return total


def bootstrap(alone, beside, k, bound, draws=400, seed=1):
    """The 95th percentile of the exact rate over resamplings of the rounds."""
    rng = random.Random(seed)
    rates = sorted(exact(rng.choices(alone, k=len(alone)), rng.choices(beside, k=len(beside)), k, bound)
                   for _ in range(draws))
    return rates[int(0.95 * draws)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--k", type=int, default=5)
    ap.add_argument("--bound", type=float, default=0.8)
    ap.add_argument("--alone", required=True)
    ap.add_argument("--beside", required=True)
    o = ap.parse_args()
    alone = [float(x) for x in o.alone.split()]
    beside = [float(x) for x in o.beside.split()]
    if len(alone) < o.k or len(beside) < o.k:
        raise SystemExit("ratio-rate: fewer rounds than K")
    print(f"rounds: {len(alone)} alone, {len(beside)} beside; best of {o.k}, bound {o.bound}")
    print(f"alone  s: min {min(alone):.2f} median {sorted(alone)[len(alone)//2]:.2f} max {max(alone):.2f}")
    print(f"beside s: min {min(beside):.2f} median {sorted(beside)[len(beside)//2]:.2f} max {max(beside):.2f}")
    print(f"best-of-all ratio: {min(alone) / min(beside):.3f}")
    print(f"false-failure rate, exact over subsets of these rounds: {exact(alone, beside, o.k, o.bound):.2e}")
    print(f"its 95th percentile over bootstrap resamplings of the rounds: {bootstrap(alone, beside, o.k, o.bound):.2e}")


if __name__ == "__main__":
    main()
