#!/usr/bin/env python3
"""Turn bench/sctbench's RESULT lines into a CSV and a markdown report: hits per
program and mode (with 95% Wilson intervals), and, of the bugs the default
scheduler never showed, how many each mode exposed at least once and in at
least a quarter of the runs."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
from wilson import wilson  # noqa: E402

log, base, kernel, cpus, nruns, modes_file = sys.argv[1:7]
runs, warns = [], []
with open(log, errors="replace") as f:
    for line in f:
        if line.startswith("RESULT "):
            runs.append(dict(kv.split("=", 1) for kv in line.split()[1:]))
        elif line.startswith("BENCH-WARN"):
            warns.append(line.strip())
modes, flags = [], {}
with open(modes_file) as f:
    for line in f:
        if line.strip():
            name, _, fl = line.rstrip("\n").partition("\t")
            modes.append(name)
            flags[name] = fl.strip()
progs = list(dict.fromkeys(r["prog"] for r in runs))

with open(base + ".csv", "w") as f:
    f.write("prog,mode,block,seed,result,rc,secs\n")
    for r in runs:
        f.write(",".join(r[k] for k in ("prog", "mode", "block", "seed", "result", "rc", "secs")) + "\n")


def tally(prog, mode):
    rs = [r for r in runs if r["prog"] == prog and r["mode"] == mode and r["result"] != "error"]
    hits = sum(r["result"] in ("fail", "hang") for r in rs)
    hangs = sum(r["result"] == "hang" for r in rs)
    errs = sum(r["result"] == "error" for r in runs if r["prog"] == prog and r["mode"] == mode)
    return hits, len(rs), hangs, errs


out = [f"# SCTBench concurrent-software programs under scx_fuzz ({kernel}, {cpus} CPUs, {nruns} runs each)", ""]
if os.environ.get("SCTBENCH_BUILD"):
    out += [f"Built and started: {os.environ['SCTBENCH_BUILD']}.", ""]
out.append("Modes: " + "; ".join(f"`{m}` = " + (f"`scx_fuzz {flags[m]}`" if flags[m] else
                                                    ("the default scheduler" if m == "default" else "`scx_fuzz` (no flags)"))
                                  for m in modes) + ".")
out += ["", "A hit is a run that failed: an assertion, a non-zero exit, or a hang (killed at the time limit; "
        "counted in brackets). Cells: hits/runs (95 % interval).", ""]
out.append("| program | " + " | ".join(modes) + " |")
out.append("|---|" + "---|" * len(modes))
for p in progs:
    cells = []
    for m in modes:
        k, n, h, e = tally(p, m)
        lo, hi = wilson(k, n)
        c = f"{k}/{n}" + (f" [{h} hang]" if h else "") + f" ({100 * lo:.0f}–{100 * hi:.0f} %)"
        cells.append(c + (f" {e} err" if e else ""))
    out.append(f"| {p} | " + " | ".join(cells) + " |")

bad = [p for p in progs if p.endswith("_bad")]
quiet = [p for p in bad if "default" in modes and tally(p, "default")[0] == 0]
if "default" in modes and bad:
    out += ["", f"Of the {len(bad)} `*_bad` programs, the default scheduler never showed **{len(quiet)}** "
            f"in {nruns} runs. Of those, each mode exposed:", ""]
    out.append("| mode | in ≥ 1 run | in ≥ 5 runs | which |")
    out.append("|---|---|---|---|")
    for m in modes:
        if m == "default":
            continue
        one = [p for p in quiet if tally(p, m)[0] >= 1]
        five = [p for p in quiet if tally(p, m)[0] >= 5]
        out.append(f"| {m} | {len(one)} of {len(quiet)} | {len(five)} of {len(quiet)} | "
                   + ", ".join(p.replace('_bad', '') for p in one) + " |")
oks = [p for p in progs if p.endswith("_ok")]
if oks:
    alarms = [(p, m, tally(p, m)[0]) for p in oks for m in modes if tally(p, m)[0]]
    out += ["", f"False alarms on the {len(oks)} bug-free `*_ok` variants: " +
            (", ".join(f"{p} under {m} ({k})" for p, m, k in alarms) if alarms else "none") + "."]
errors = sum(r["result"] == "error" for r in runs)
if errors or warns:
    out += ["", f"Runs that could not be measured (scheduler errors): {errors}."] + [f"- `{w}`" for w in warns[:10]]
with open(base + ".md", "w") as f:
    f.write("\n".join(out) + "\n")
