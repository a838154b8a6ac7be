#!/usr/bin/env python3
"""Turn bench/bugs' RESULT lines into a CSV, a markdown table (hit rate with a
95% Wilson score interval, median time to failure) and a gnuplot data file."""
import os
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
from wilson import wilson  # noqa: E402

log, base, kernel, cpus, rounds = sys.argv[1:6]
KNOWN = ["default", "baseline", "low", "medium", "high", "windows", "serial", "pct2", "pct3"]
runs, steps = [], {}
with open(log, errors="replace") as f:
    for line in f:
        if line.startswith("RESULT "):
            runs.append(dict(kv.split("=", 1) for kv in line.split()[1:]))
        elif line.startswith("STEPS "):
            kv = dict(x.split("=", 1) for x in line.split()[1:])
            steps[kv["example"]] = kv["pct_steps"]
MODES = [m for m in KNOWN if any(r["mode"] == m for r in runs)]
MODES += [m for m in dict.fromkeys(r["mode"] for r in runs) if m not in MODES]


with open(base + ".csv", "w") as f:
    f.write("example,mode,round,seed,result,rc,secs\n")
    for r in runs:
        f.write(",".join(r[k] for k in ("example", "mode", "round", "seed", "result", "rc", "secs")) + "\n")

examples = list(dict.fromkeys(r["example"] for r in runs))
rows, dat = [], []
for ex in examples:
    cells, rates = [], []
    for m in MODES:
        rs = [r for r in runs if r["example"] == ex and r["mode"] == m and r["result"] != "error"]
        if not rs:                  # a mode this run did not measure (older logs)
            cells.append("–")
            rates.append(None)
            continue
        k = sum(r["result"] == "fail" for r in rs)
        n = len(rs)
        lo, hi = wilson(k, n)
        ttf = [float(r["secs"]) for r in rs if r["result"] == "fail"]
        med = f"{statistics.median(ttf):.1f} s" if ttf else "–"
        cells.append(f"{k}/{n} ({100 * k / n if n else 0:.0f} %, {100 * lo:.0f}–{100 * hi:.0f}) {med}")
        rates.append((100 * k / n if n else 0, 100 * lo, 100 * hi))
    d_rate = rates[0][0]
    best = max([r[0] for r in rates[1:] if r] or [0])
    verdict = "≥10×" if (d_rate == 0 and best > 50) or (d_rate > 0 and best >= 10 * d_rate) else "no"
    rows.append(f"| {ex} | " + " | ".join(cells) + f" | {verdict} |")
    dat.append(ex + " " + " ".join(f"{r[0]:.1f} {r[1]:.1f} {r[2]:.1f}" for r in rates if r))
errors = sum(r["result"] == "error" for r in runs)

with open(base + ".dat", "w") as f:
    measured = [m for m in MODES if any(r["mode"] == m for r in runs)]
    f.write("# modes: " + " ".join(measured) + "\n# example, then per mode: rate lo hi (percent)\n" + "\n".join(dat) + "\n")
with open(base + ".md", "w") as f:
    f.write("# Example races: hit rate under the default scheduler and scx_fuzz\n\n")
    f.write(f"Kernel {kernel}, {cpus} vCPUs (QEMU TCG), {rounds} runs per example and mode, modes "
            "interleaved run by run in one boot. Cell: failures/runs (hit rate, 95 % Wilson interval) "
            "median time to failure (from start of the run). `low`/`medium`/`high`: scx_fuzz's "
            "intensities; `windows`: `--mode windows`, the original tool's algorithm (a run that "
            "outlives the 10 s limit without the race counts as a miss, except for deadlock); "
            "`serial`: `--serialize --preempt 20us:500us` (medium's other perturbations included); "
            "`pct2`/`pct3`: `--mode pct --depth 2`/`3`, each run a campaign of its own, its change "
            "points drawn over the steps measured per example before the rounds (`--pct-steps`"
            + (": " + ", ".join(f"{e} {n}" for e, n in steps.items()) if steps else "") + "). "
            "Last column: scx_fuzz's best rate is "
            "≥ 10× the default's (or the default is 0 and scx_fuzz > 50 %).\n\n")
    f.write("| example | " + " | ".join(MODES) + " | ≥10× |\n|---|" + "---|" * (len(MODES) + 1) + "\n")
    f.write("\n".join(rows) + "\n")
    if errors:
        f.write(f"\n{errors} runs ended in a scheduler error (exit 3) and are left out.\n")
    f.write(f"\nRaw: `{base.split('/')[-1]}.csv` (every run), `{base.split('/')[-1]}.log` (guest log).\n")
