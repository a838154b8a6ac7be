#!/usr/bin/env python3
"""Turn bench/overhead's RESULT lines into a CSV, a markdown table of
throughput ratios to the default scheduler (medians of the rounds) and a
gnuplot data file. usage: overhead-report.py BASE KERNEL ROUNDS SECS LOG..."""
import statistics
import subprocess
import sys

base, kernel, rounds, secs = sys.argv[1:5]
logs = sys.argv[5:]
MODES = ["base", "off", "low", "medium", "high", "global"]
WORKLOADS = ["hackbench", "pipe", "cpu"]
SPLIT_MODES = ["off", "low"]
runs = []
for log in logs:
    with open(log, errors="replace") as f:
        for line in f:
            if line.startswith("RESULT "):
                r = dict(kv.split("=", 1) for kv in line.split()[1:])
                r["log"] = log
                runs.append(r)
for r in runs:
    r["value"] = float(r["value"] or 0)

with open(base + ".csv", "w") as f:
    f.write("cpus,nodes,round,mode,workload,value,unit\n")
    for r in runs:
        f.write(f"{r['cpus']},{r.get('nodes', '')},{r['round']},{r['mode']},{r['workload']},{r['value']:g},{r['unit']}\n")


def median(cpus, mode, workload):
    v = [r["value"] for r in runs if (r["cpus"], r["mode"], r["workload"]) == (cpus, mode, workload)]
    return statistics.median(v) if v else None


def ratio(cpus, mode, workload):
    d, m = median(cpus, "default", workload), median(cpus, mode, workload)
    return m / d if d and m is not None else None


def fmt(x):
    return "–" if x is None else f"{x:.2f}"


sizes = sorted({r["cpus"] for r in runs}, key=int)
units = {r["workload"]: r["unit"] for r in runs}
nodes = {r["cpus"]: r.get("nodes", "?") for r in runs}
host_cores = subprocess.run(["nproc"], capture_output=True, text=True).stdout.strip()
out = [f"# scx_fuzz overhead: throughput vs the default scheduler", "",
       f"{subprocess.run(['date', '-u', '+%F'], capture_output=True, text=True).stdout.strip()}, "
       f"kernel {kernel}, QEMU TCG (single-threaded) on {host_cores} host cores; median of {rounds} "
       f"interleaved rounds, {secs}s runs. Ratio = mode / default (1.00 = no cost, higher is better); "
       "the workload is the fuzzing target. `base`: scx_fuzz attached, the workload not a target; "
       "`off`: a target, not perturbed; `global`: the seed's single shared queue.", "",
       "| vCPUs (nodes) | workload | default | " + " | ".join(MODES) + " |",
       "|---|---|---|" + "---|" * len(MODES)]
dat = []
for c in sizes:
    for w in WORKLOADS:
        d = median(c, "default", w)
        if d is None:
            continue
        ratios = [ratio(c, m, w) for m in MODES]
        out.append(f"| {c} ({nodes[c]}) | {w} | {d:.6g} {units[w]} | " + " | ".join(fmt(x) for x in ratios) + " |")
        dat.append(f"{c}cpu-{w} " + " ".join("NaN" if x is None else f"{x:.4f}" for x in ratios))
out += ["", "**Target vs everyone else** (two ping-pongs at once, the first targeted): ratio of each "
        "one's round trips to the same pair under the default scheduler.", "",
        "| vCPUs | mode | target | non-target |", "|---|---|---|---|"]
for c in sizes:
    for m in SPLIT_MODES:
        t, o = ratio(c, m, "pipe_target"), ratio(c, m, "pipe_other")
        if t is not None or o is not None:
            out.append(f"| {c} | {m} | {fmt(t)} | {fmt(o)} |")
out += ["", f"Raw numbers: `{base.split('/')[-1]}.csv` (every run) and the guest logs beside it."]
with open(base + ".md", "w") as f:
    f.write("\n".join(out) + "\n")
with open(base + ".dat", "w") as f:
    f.write("# case " + " ".join(MODES) + "\n" + "\n".join(dat) + "\n")
