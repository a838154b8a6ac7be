#!/usr/bin/env python3
"""Check docs/usage.md's kernel-features table against what `scx_fuzz -v` printed in a guest.

usage: tests/compat_table.py DOCS LOG
LOG holds a line "KFEATURES RELEASE scx_fuzz: kernel features: NAME=yes|no ..." (guest/basic.sh);
the table's column for RELEASE's major.minor must agree with it cell by cell, and name the same
features. Prints ok/not ok lines.
"""
import re
import sys

BEGIN, END = "<!-- kernel-features: begin -->", "<!-- kernel-features: end -->"


def read_table(docs):
    text = open(docs, encoding="utf-8").read()
    if BEGIN not in text or END not in text:
        raise ValueError(f"{docs} has no {BEGIN} ... {END} table")
    rows = [r.strip() for r in text.split(BEGIN, 1)[1].split(END, 1)[0].splitlines() if r.strip()]
    cells = [[c.strip() for c in r.strip("|").split("|")] for r in rows if not re.match(r"^\|[-| ]+\|$", r)]
    header, body = cells[0], cells[1:]
    kernels = header[2:]
    table = {}
    for row in body:
        name = row[0].strip("`")
        table[name] = dict(zip(kernels, row[2:]))
    return kernels, table


def read_features(log):
    for line in open(log, encoding="utf-8", errors="replace"):
        m = re.match(r"^KFEATURES (\S+) scx_fuzz: kernel features: (.*)$", line.strip())
        if m:
            return m.group(1), dict(kv.split("=", 1) for kv in m.group(2).split())
    return None, None


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    docs, log = sys.argv[1:]
    try:
        kernels, table = read_table(docs)
        release, have = read_features(log)
    except (OSError, ValueError) as e:
        print(f"not ok - compat table: {e}")
        return 1
    if release is None:
        print(f"not ok - compat table: no KFEATURES line in {log}")
        return 1
    version = ".".join(release.split(".")[:2])
    tag = f"[compat table {version}]"
    if version not in kernels:
        print(f"not ok - {tag} docs/usage.md has no column for {release} (columns: {', '.join(kernels)})")
        return 1
    bad = 0
    for name in sorted(set(table) | set(have)):
        doc = table.get(name, {}).get(version)
        if doc != have.get(name):
            print(f"not ok - {tag} {name}: the table says {doc}, -v in {release} says {have.get(name)}")
            bad += 1
    if not bad:
        print(f"ok - {tag} the table's {version} column matches -v in {release} ({len(have)} features)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
