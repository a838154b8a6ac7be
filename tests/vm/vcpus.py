#!/usr/bin/env python3
"""Where a hung guest's vCPUs are: ask QEMU's monitor, then name the addresses.

usage: vcpus.py dump MONITOR_SOCKET        registers and a stack excerpt of every
                                           vCPU, raw, then quit QEMU
       vcpus.py name RAW_DUMP [KALLSYMS]   one line per vCPU, and the vCPUs
                                           grouped by the function they are in
The rig runs `dump` when a guest outlives its time limit (a silent hang prints
nothing of its own) and `name` on the result, with the guest's text symbols.
"""
import bisect
import re
import socket
import sys
import time

STACK_WORDS = 64
KERNEL_TEXT = re.compile(r"^ffffffff[89a-f][0-9a-f]{7}$")


def monitor_command(sock, cmd):
    """Send one HMP command and return its output (up to the next prompt)."""
    sock.sendall(cmd.encode() + b"\n")
    return read_to_prompt(sock)


def read_to_prompt(sock):
    buf = b""
    deadline = time.monotonic() + 30
    while not buf.endswith(b"(qemu) ") and time.monotonic() < deadline:
        chunk = sock.recv(65536)
        if not chunk:
            break
        buf += chunk
    text = buf.decode(errors="replace").replace("\r", "")
    return re.sub(r"\x1b\[[0-9;]*[A-Za-z]", "", text).rsplit("(qemu) ", 1)[0]


def dump(path):
    sock = socket.socket(socket.AF_UNIX)
    sock.settimeout(30)
    sock.connect(path)
    read_to_prompt(sock)
    monitor_command(sock, "stop")  # a still image, not a moving one
    regs = monitor_command(sock, "info registers -a")
    print(regs)
    for cpu, rsp in re.findall(r"CPU#(\d+).*?RSP=([0-9a-f]+)", regs, re.S):
        monitor_command(sock, "cpu %s" % cpu)
        print("STACK CPU#%s" % cpu)
        print(monitor_command(sock, "x /%dgx 0x%s" % (STACK_WORDS, rsp)))
    try:
        sock.sendall(b"quit\n")
    except OSError:
        pass


def load_symbols(path):
    syms = []
    with open(path) as f:
        for line in f:
            parts = line.split()
            if len(parts) >= 3 and parts[1] in "tT" and len(parts[0]) == 16:
                syms.append((int(parts[0], 16), parts[2]))
    syms.sort()
    return [a for a, _ in syms], [n for _, n in syms]


def namer(kallsyms):
    if not kallsyms:
        return lambda addr: "0x%x" % addr
    addrs, names = load_symbols(kallsyms)

    def name(addr):
        i = bisect.bisect_right(addrs, addr) - 1
        if i < 0 or addr - addrs[i] > 0x100000:
            return "0x%x" % addr
        return "%s+0x%x" % (names[i], addr - addrs[i])
    return name


def name(raw, kallsyms):
    text = open(raw, errors="replace").read()
    symbol = namer(kallsyms)
    rips = dict(re.findall(r"CPU#(\d+).*?RIP=([0-9a-f]+)", text, re.S))
    stacks = dict(re.findall(r"STACK CPU#(\d+)\n(.*?)(?=STACK CPU#|\Z)", text, re.S))
    groups = {}
    for cpu in sorted(rips, key=int):
        where = symbol(int(rips[cpu], 16))
        words = re.findall(r"0x([0-9a-f]{16})", stacks.get(cpu, ""))
        callers = [symbol(int(w, 16)) for w in words if KERNEL_TEXT.match(w)]
        print("vcpu %s: %s  <- %s" % (cpu, where, " <- ".join(callers[:8]) or "?"))
        groups.setdefault(where.split("+")[0], []).append(cpu)
    for fn, cpus in sorted(groups.items(), key=lambda g: -len(g[1])):
        print("in %s: %d vCPU(s) (%s)" % (fn, len(cpus), ",".join(cpus)))


if __name__ == "__main__":
    if len(sys.argv) >= 3 and sys.argv[1] == "dump":
        dump(sys.argv[2])
    elif len(sys.argv) >= 3 and sys.argv[1] == "name":
        name(sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else None)
    else:
        sys.exit(__doc__)
