#!/usr/bin/env python3
"""The loader's layers: every call and include runs down, never up or round.

    cli/   main, flags             (top)
    run/   the campaign runner
    sched/ target/ points/         (peers: never call each other)
    output/ report, JSON, trace    (sinks: receive plain structs)
    loader/*.h, *.c                shared types (bottom)

Calls come from the built objects (`nm`: a file's undefined symbols against
the file that defines them), includes from the sources. Prints TAP lines;
exits 1 if a folder has no layer, a file or folder circle exists, or an edge
runs up or sideways. usage: tests/layers.py [BUILD_DIR]  (default: build)
"""
import os
import re
import subprocess
import sys

LAYERS = {"cli": 0, "run": 1, "sched": 2, "target": 2, "points": 2, "output": 3, "": 4}
ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
LOADER = os.path.join(ROOT, "loader")


def units():
    """Each source or header under loader/, as 'folder/name' without suffix."""
    found = set()
    for d, _, files in os.walk(LOADER):
        for f in files:
            if f.endswith((".c", ".h")):
                found.add(os.path.relpath(os.path.join(d, f[:-2]), LOADER))
    return found


def folder(unit):
    return os.path.dirname(unit)


def include_edges(all_units):
    by_header = {os.path.basename(u) + ".h": u for u in all_units
                 if os.path.exists(os.path.join(LOADER, u + ".h"))}
    edges = set()
    for u in all_units:
        for ext in (".c", ".h"):
            path = os.path.join(LOADER, u + ext)
            if not os.path.exists(path):
                continue
            for name in re.findall(r'^#include "([^"]+)"', open(path).read(), re.M):
                dst = by_header.get(os.path.basename(name))
                if dst and dst != u:
                    edges.add((u, dst, "includes " + name))
    return edges


def call_edges(build, all_units, out):
    defined, wanted = {}, {}
    for u in all_units:
        obj = os.path.join(build, "loader", u + ".o")
        if not os.path.exists(os.path.join(LOADER, u + ".c")):
            continue
        if not os.path.exists(obj):
            out.append(f"not ok - {obj} is built (run make first)")
            continue
        text = subprocess.run(["nm", obj], capture_output=True, text=True, check=True).stdout
        for line in text.splitlines():
            parts = line.split()
            if len(parts) == 3 and parts[1] in "TDBR":
                defined[parts[2]] = u
            elif len(parts) == 2 and parts[0] == "U":
                wanted.setdefault(u, set()).add(parts[1])
    edges = set()
    for u, syms in wanted.items():
        for s in syms:
            if s in defined and defined[s] != u:
                edges.add((u, defined[s], "calls " + s))
    return edges


def circle(nodes, edges):
    """A cycle in the graph as a list of nodes, or None."""
    nxt = {}
    for a, b in edges:
        if a != b:
            nxt.setdefault(a, set()).add(b)
    state = {}

    def visit(n, path):
        state[n] = 1
        path.append(n)
        for m in sorted(nxt.get(n, ())):
            if state.get(m) == 1:
                return path[path.index(m):] + [m]
            if not state.get(m):
                found = visit(m, path)
                if found:
                    return found
        state[n] = 2
        path.pop()
        return None

    for n in sorted(nodes):
        if not state.get(n):
            found = visit(n, [])
            if found:
                return found
    return None


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build")
    out = []
    all_units = units()
    edges = include_edges(all_units) | call_edges(build, all_units, out)

    homeless = sorted({folder(u) for u in all_units} - set(LAYERS))
    out.append(("ok" if not homeless else "not ok") +
               " - every loader folder has a layer" + (f" ({', '.join(homeless)})" if homeless else ""))

    plain = {(a, b) for a, b, _ in edges}
    c = circle(all_units, plain)
    out.append(("ok" if not c else "not ok") + " - no circle between loader files" +
               (f" ({' -> '.join(c)})" if c else ""))
    c = circle({folder(u) for u in all_units},
               {(folder(a), folder(b)) for a, b in plain if folder(a) != folder(b)})
    out.append(("ok" if not c else "not ok") + " - no circle between loader folders" +
               (f" ({' -> '.join(x or 'loader' for x in c)})" if c else ""))

    up = sorted(f"{a} {why} ({b})" for a, b, why in edges
                if folder(a) != folder(b) and folder(a) in LAYERS and folder(b) in LAYERS
                and LAYERS[folder(a)] >= LAYERS[folder(b)])
    out.append(("ok" if not up else "not ok") + " - every edge between folders runs down a layer" +
               (": " + "; ".join(up) if up else f" ({len(edges)} edges)"))
    print("\n".join(out))
    return 1 if any(line.startswith("not ok") for line in out) else 0


if __name__ == "__main__":
    sys.exit(main())
