#!/usr/bin/env python3
"""Render an scx_fuzz --trace file as a small text timeline: one row per
target thread over the last MS milliseconds of the run, showing when it ran,
when scx_fuzz held it back and where it was moved, then the longest holds.

usage: trace-timeline.py TRACE.json [--last MS] [--width COLS] [--threads N]
"""
import argparse
import json
import sys

GLYPHS = [("!", "moved to a far node"), ("m", "moved to another LLC"),
          ("p", "preempted by scx_fuzz (after a wake-up or creation, or by a timer)"), ("#", "running"),
          ("~", "held back by scx_fuzz"), (".", "not running")]
RANK = {g: i for i, (g, _) in enumerate(GLYPHS)}


def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        sys.exit(f"trace-timeline: cannot read {path}: {e}")


def mark(row, col, glyph):
    if RANK[glyph] < RANK[row[col]]:
        row[col] = glyph


def main():
    ap = argparse.ArgumentParser(description="text timeline of an scx_fuzz trace")
    ap.add_argument("trace")
    ap.add_argument("--last", type=float, default=200.0, help="milliseconds before the end (200)")
    ap.add_argument("--width", type=int, default=64, help="columns of the timeline (64)")
    ap.add_argument("--threads", type=int, default=8, help="rows at most, busiest first (8)")
    a = ap.parse_args()
    doc = load(a.trace)
    events = doc.get("traceEvents", [])
    names = {e["tid"]: e["args"]["name"] for e in events if e.get("ph") == "M"}
    timed = [e for e in events if e.get("ph") in ("X", "i")]
    if not timed:
        sys.exit("trace-timeline: the trace holds no events")
    end = max(e["ts"] + e.get("dur", 0) for e in timed)
    start = max(0.0, end - a.last * 1000)
    step = (end - start) / a.width or 1
    rows, busy, holds = {}, {}, []
    for e in timed:
        t0, t1 = e["ts"], e["ts"] + e.get("dur", 0)
        if t1 < start:
            continue
        row = rows.setdefault(e["tid"], ["."] * a.width)
        busy[e["tid"]] = busy.get(e["tid"], 0) + 1
        c0 = min(a.width - 1, int((max(t0, start) - start) / step))
        c1 = min(a.width - 1, int((t1 - start) / step))
        glyph = {"run": "#", "delayed": "~"}.get(e["name"])
        if glyph is None:
            glyph = ("!" if "far" in e["name"] else "m" if e["name"].startswith("migrated") else
                     "p" if e["name"].startswith("preempted") else None)
        if glyph:
            for c in range(c0, c1 + 1):
                mark(row, c, glyph)
        if e["name"] == "delayed":
            holds.append((e.get("dur", 0), t0, e["tid"]))
    meta = doc.get("otherData", {})
    print(f"scx_fuzz trace, seed {meta.get('seed', '?')}: the last {(end - start) / 1000:.0f} ms "
          f"of the run, one column = {step / 1000:.1f} ms")
    label = max([len(names.get(t, str(t))) for t in rows] + [6])
    top = sorted(rows, key=lambda t: -busy[t])[:a.threads]
    for tid in sorted(top):
        print(f"  {names.get(tid, str(tid)):<{label}} |{''.join(rows[tid])}|")
    print(f"  {'':<{label}}  {-(end - start) / 1000:<.0f} ms{'end':>{a.width - 4}}")
    print("  " + "  ".join(f"{g} {what}" for g, what in GLYPHS))
    for dur, t0, tid in sorted(holds, reverse=True)[:3]:
        print(f"  held {dur / 1000:.1f} ms: {names.get(tid, tid)} at {(t0 - end) / 1000:.1f} ms")
    if meta.get("reproduce"):
        print(f"  reproduce: {meta['reproduce']}")


if __name__ == "__main__":
    main()
