#!/usr/bin/env python3
"""Validate the --json and --trace files the runner VM test printed (between
'=== BEGIN NAME' and '=== END NAME' lines of the guest log). Prints ok/not ok lines."""
import json
import sys

log, kernel = sys.argv[1], sys.argv[2]
tag = f"[runner-files {kernel}]"


def report(ok, what):
    print(f"{'ok' if ok else 'not ok'} - {tag} {what}")


def blocks(path):
    found, name, lines = {}, None, []
    with open(path, errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("=== BEGIN "):
                name, lines = line[len("=== BEGIN "):], []
            elif line.startswith("=== END ") and name:
                found[name] = "\n".join(lines)
                name = None
            elif name:
                lines.append(line)
    return found


def parse(files, name):
    try:
        return json.loads(files[name])
    except (KeyError, ValueError) as e:
        report(False, f"{name} parses as JSON ({e})")
        return None


files = blocks(log)
c = parse(files, "campaign.json")
if c:
    runs = c.get("runs", [])
    last = runs[-1] if runs else {}
    report(c.get("tool") == "scx_fuzz" and c.get("command") == ["./expiry"], "campaign.json: tool and command")
    report(isinstance(c.get("kernel"), str) and c.get("topology", {}).get("cpus") == 4, "campaign.json: kernel and topology")
    report(len(runs) >= 1 and all(isinstance(r["seed"], int) and r["duration_s"] >= 0 for r in runs),
           f"campaign.json: {len(runs)} runs, each with a seed and a duration")
    report(last.get("result") == "fail" and last.get("exit_status") == 1 and last.get("failed") is True,
           "campaign.json: the last run failed with the command's exit status 1")
    report(all(r["result"] == "pass" for r in runs[:-1]), "campaign.json: the runs before it passed")
    report(last.get("counters", {}).get("delayed", 0) > 0, "campaign.json: the failing run's counters")
    s = c.get("summary", {})
    report(s.get("exit_status") == 1 and s.get("exit_meaning") == "failure-found" and s.get("failures") == 1,
           "campaign.json: summary says a failure was found (exit 1)")
    report(c.get("options", {}).get("timeout_s") == 10 and c["options"].get("until") == "failure",
           "campaign.json: options recorded")

failing = (c.get("runs") or [{}])[-1].get("counters", {}) if c else {}
t = parse(files, "trace.json")
if t:
    ev = t.get("traceEvents", [])
    well_formed = all({"name", "ph", "pid", "tid"} <= e.keys() and (e["ph"] == "M" or "ts" in e) for e in ev)
    report(len(ev) > 0 and well_formed, f"trace.json: {len(ev)} trace events, each with name/ph/pid/tid/ts")
    names = {e["name"] for e in ev}
    report("delayed" in names, "trace.json: delay events")
    # The run may fail before any forced move: the trace must agree with its counters.
    moves = sum(1 for e in ev if e["name"].startswith("migrated"))
    counted = failing.get("migrate_llc", 0) + failing.get("migrate_node", 0)
    report(counted > 0 and 0 < moves <= counted or counted == 0 and moves == 0,
           f"trace.json: migration events agree with the run's counters ({moves} events, {counted} counted)")
    report("run" in names and all(e["dur"] >= 0 for e in ev if e["ph"] == "X"), "trace.json: run slices with durations")
    threads = {e["tid"] for e in ev if e["name"] == "thread_name" and "expiry" in e["args"]["name"]}
    report(len(threads) >= 2, f"trace.json: named tracks for the target's threads ({len(threads)})")
    report("--seed" in t.get("otherData", {}).get("reproduce", ""), "trace.json: carries the reproduction line")

h = parse(files, "hang.json")
if h:
    hangs = [r for r in h.get("runs", []) if r["result"] == "hang"]
    report(len(hangs) == 1 and hangs[0]["exit_status"] is None and hangs[0]["failed"],
           "hang.json: the hung run is recorded as a hang, with no exit status")
