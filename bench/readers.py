#!/usr/bin/env python3
"""Bench: every reader of outside input, from 1 KiB to 64 MiB.

Each reader is fed one input grown from a real one to each size, in a
fresh `gpucheck` process, and the wall time and peak resident memory of
that process are measured (os.wait4). A reader is linear when the time and
the memory added per MiB stay flat as the input grows; docs/PERFORMANCE.md
("Readers: time and memory per MiB") holds a run's table, docs/robustness.md
the limits that stop an input before it costs more.

    reader         command                               grown from
    paste          check --from F                        a real collect_env (tests/data/reports), its pip list grown
    paste-smi      check --from F                        a real nvidia-smi table (tests/data/reports/nvsmi_table), repeated
    paste-real     check --from F                        the 100 real pastes of tests/data/pastes-real, repeated
    facts-json     check --from F                        a golden facts JSON with its notes repeated
    lockfile       --root FIXTURE verify F               a golden lock with comment lines added
    matrix         --matrix F check                      a rules file with its rules repeated under new ids
    fleet          fleet DIR                             copies of a golden `check --json` report
    ld.so.cache    --root S probe                        a valid cache with one entry per library, more entries

usage: bench/readers.py path/to/gpucheck [--max-mib 64] [--only READER]
"""
import argparse
import glob
import json
import os
import shutil
import struct
import subprocess
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SIZES = [1 << 10, 4 << 10, 16 << 10, 64 << 10, 256 << 10, 1 << 20, 4 << 20, 16 << 20, 64 << 20]


def src(*p):
    return os.path.join(ROOT, *p)


def repeat(unit, size):
    return (unit * (size // len(unit) + 1))[:size]


def whole_units(unit, size):
    """`unit` repeated to at least `size` bytes, never cut (JSON, a cache)."""
    return max(1, -(-size // len(unit)))


def run(cmd, cwd):
    # Through time(1): Linux keeps a process's peak RSS across fork and exec,
    # so a child of this (large) Python would report Python's peak.
    p = subprocess.run(["/usr/bin/time", "-f", "%e %M"] + cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    lines = p.stderr.decode(errors="replace").strip().splitlines()
    seconds, kib = lines[-1].split()
    return float(seconds), int(kib) / 1024, p.returncode, "\n".join(l for l in lines[:-1] if not l.startswith("Command exited"))


def paste(size, work, _):
    # One node's collect_env whose environment grows: a pip list of `size` bytes.
    text = open(src("tests/data/reports/collect_env/pt17009-pascal8-torch0.4.1-partial.txt"), "rb").read()
    at = text.index(b"Versions of relevant libraries:")
    at = text.index(b"\n", at) + 1
    pins = b"".join(b"[pip3] bench-package-%07d==1.0.%d\n" % (i, i % 100) for i in range(max(1, size // 36)))
    path = os.path.join(work, "paste.txt")
    open(path, "wb").write(text[:at] + pins[:max(0, size - len(text))] + text[at:])
    return ["check", "--from", path]


def paste_smi(size, work, _):
    table = sorted(glob.glob(src("tests/data/reports/nvsmi_table/*.txt")))[0]
    path = os.path.join(work, "smi.txt")
    open(path, "wb").write(repeat(open(table, "rb").read() + b"\n", size))
    return ["check", "--from", path]


def paste_real(size, work, _):
    texts = [open(p, "rb").read() for p in sorted(glob.glob(src("tests/data/pastes-real/*.txt"))) if not p.endswith(".source.txt")]
    path = os.path.join(work, "real.txt")
    open(path, "wb").write(repeat(b"\n\n".join(texts) + b"\n", size))
    return ["check", "--from", path]


def facts_json(size, work, _):
    facts = json.load(open(src("tests/fixtures/golden/h100-sxm-8gpu.json")))
    note = facts["notes"][0] if facts.get("notes") else {"subject": "report", "item": "x", "reason": "absent", "where": "x", "detail": "x"}
    unit = len(json.dumps(note)) + 2
    facts["notes"] = [dict(note, item=f"{note['item']} {i}") for i in range(max(1, (size - 4096) // unit))]
    path = os.path.join(work, "facts.json")
    json.dump(facts, open(path, "w"))
    return ["check", "--from", path]


def lockfile(size, work, _):
    lock = open(src("tests/fixtures/golden/h100-sxm-8gpu.lock"), "rb").read()
    comment = b"# a reviewer's note on this pin, kept with the lock\n"
    path = os.path.join(work, "stack.lock")
    open(path, "wb").write(repeat(comment, max(0, size - len(lock))) + lock if size > len(lock) else lock)
    return ["--root", src("tests/fixtures/hosts/h100-sxm-8gpu"), "verify", path]


def matrix(size, work, _):
    rules = json.load(open(src("matrix/rules/known_bugs.json")))
    unit = len(json.dumps(rules["rules"][0])) + 2
    n = whole_units(b"x" * unit, size)
    base = rules["rules"]
    rules["rules"] = [dict(base[i % len(base)], id=f"bench-{i}-{base[i % len(base)]['id']}") for i in range(n)]
    path = os.path.join(work, "layer.json")
    json.dump(rules, open(path, "w"))
    return ["--matrix", path, "--root", src("tests/fixtures/hosts/h100-sxm-8gpu"), "check"]


def fleet(size, work, report):
    d = os.path.join(work, "fleet")
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    for i in range(whole_units(report, size)):
        open(os.path.join(d, f"node{i:05d}.json"), "wb").write(report)
    return ["fleet", d]


def ld_cache(size, work, _):
    snap = os.path.join(work, "snap")
    shutil.rmtree(snap, ignore_errors=True)
    shutil.copytree(src("tests/fixtures/hosts/cpu-only"), snap, symlinks=True)
    # A valid new-format cache (glibc-ld.so.cache1.1): one 24-byte entry and
    # two strings per library, as ldconfig writes for a large /usr/lib.
    n = max(1, size // 80)
    strings, entries, used = [], [], 0
    base = 48 + 24 * n
    for i in range(n):
        name = b"libbench%07d.so.1" % i
        path = b"/usr/lib/x86_64-linux-gnu/" + name
        at = base + used
        strings.append(path + b"\0")
        used += len(path) + 1
        entries.append(struct.pack("<iIIIQ", 0x303, at + len(path) - len(name), at, 0, 0))
    header = (b"glibc-ld.so.cache1.1" + struct.pack("<II", n, used)).ljust(48, b"\0")
    open(os.path.join(snap, "etc/ld.so.cache"), "wb").write(header + b"".join(entries) + b"".join(strings))
    return ["--root", snap, "probe"]


READERS = [("paste", paste), ("paste-smi", paste_smi), ("paste-real", paste_real), ("facts-json", facts_json),
           ("lockfile", lockfile), ("matrix", matrix), ("fleet", fleet), ("ld.so.cache", ld_cache)]


def human(n):
    return f"{n >> 20} MiB" if n >= 1 << 20 else f"{n >> 10} KiB"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("gpucheck")
    ap.add_argument("--max-mib", type=int, default=64)
    ap.add_argument("--only")
    a = ap.parse_args()
    binary = os.path.abspath(a.gpucheck)
    sizes = [s for s in SIZES if s <= a.max_mib << 20]
    with tempfile.TemporaryDirectory(prefix="gpucheck-readers-") as work:
        report = subprocess.run([binary, "--root", src("tests/fixtures/hosts/h100-sxm-8gpu"), "check", "--json"],
                                capture_output=True).stdout
        print("| reader | " + " | ".join(human(s) for s in sizes) + " | ms per MiB | MiB of memory per MiB |")
        print("|---|" + "---|" * (len(sizes) + 2))
        for name, make in READERS:
            if a.only and a.only != name:
                continue
            cells, points = [], []
            for size in sizes:
                cmd = make(size, work, report)
                actual = sum(os.path.getsize(os.path.join(dp, f)) for dp, _, fs in os.walk(cmd[-1]) for f in fs) \
                    if os.path.isdir(cmd[-1]) else size
                seconds, rss, rc, err = run([binary, "--timeout", "600"] + cmd, work)
                note = "" if rc in (0, 1) else f" (exit {rc})"
                cells.append(f"{seconds:.2f} s, {rss:.0f} MiB{note}")
                points.append((actual, seconds, rss, rc))
                if rc not in (0, 1) and size >= 1 << 20:
                    print(f"<!-- {name} {human(size)}: {err.strip()[:200]} -->")
            # The slope between the two largest inputs read: what one more MiB costs.
            read = [p for p in points if p[3] in (0, 1)]
            if len(read) >= 2 and read[-1][0] > read[-2][0]:
                (s0, t0, m0, _), (s1, t1, m1, _) = read[-2], read[-1]
                mib = (s1 - s0) / (1 << 20)
                slope = f"{1000 * (t1 - t0) / mib:.1f} | {(m1 - m0) / mib:.1f}"
            else:
                slope = "– | –"
            print(f"| {name} | " + " | ".join(cells) + f" | {slope} |", flush=True)


if __name__ == "__main__":
    main()
