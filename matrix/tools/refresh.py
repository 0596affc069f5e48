#!/usr/bin/env python3
"""Re-derives what the package index and the reachable tables give, prints
what changed and what is new upstream, and records the day each upstream
line was checked.

One run does, in order:

  1. GPU ids: matrix/tools/gpu_ids.py against NVIDIA's open kernel modules'
     README and pci.ids (the files given, else downloaded), printing the ids
     that are new, gone or changed.
  2. Package index lines (torch, vLLM, JAX's CUDA plugins, TensorFlow): the
     newest release on PyPI against the newest entry of
     matrix/frameworks.json ("new upstream" when no entry covers it), then
     matrix/tools/pypi_pins.py's pins of the newest releases, whose DIFF
     lines are what to edit.
  3. Lines no tool here reaches (CUDA, driver branches, ROCm, NGC): the
     newest the matrix holds, for a maintainer to compare by hand.

With --write-docs it rewrites the table between the refresh markers in
docs/matrix.md: per upstream line, the newest in the matrix, the newest
upstream and the day it was checked; a line this run could not reach keeps
its earlier row. Exit status 1 when a line could not be read.

Usage: matrix/tools/refresh.py [--readme FILE --readme-ref TAG]
                               [--pci-ids FILE --pci-ids-ref COMMIT]
                               [--write-docs] [--checked YYYY-MM-DD]
"""
import argparse
import json
import os
import re
import subprocess
import sys
import urllib.request

import gpu_ids

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
DOCS = os.path.join(ROOT, "docs", "matrix.md")
BEGIN, END = "<!-- refresh:begin -->", "<!-- refresh:end -->"
TIMEOUT_S = 60
PYPI_LINES = ["torch", "vllm", "jax-cuda12-plugin", "jax-cuda13-plugin", "tensorflow"]


def load(name):
    with open(os.path.join(ROOT, "matrix", name)) as f:
        return json.load(f)


def version_key(text):
    return [int(p) if p.isdigit() else -1 for p in re.split(r"[.]", text)]


def is_final(text):
    return re.fullmatch(r"\d+(\.\d+)*(\.post\d+)?", text) is not None


def newest_on_pypi(package):
    req = urllib.request.Request("https://pypi.org/pypi/%s/json" % package, headers={"User-Agent": "gpucheck-matrix-tools"})
    with urllib.request.urlopen(req, timeout=TIMEOUT_S) as r:
        releases = json.load(r)["releases"]
    live = [v for v, files in releases.items() if is_final(v) and files and not all(f.get("yanked") for f in files)]
    return max(live, key=version_key)


def covered(version, entries):
    # A series entry ("2.15") covers every 2.15.x; an exact one itself.
    for e in entries:
        if version == e or version.startswith(e + "."):
            return True
    return False


def run(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=3600)
    return r.returncode, r.stdout + r.stderr


def old_rows():
    text = open(DOCS).read()
    if BEGIN not in text or END not in text:
        return {}
    rows = {}
    for line in text[text.index(BEGIN):text.index(END)].splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 5 and cells[0] not in ("line", "---"):
            rows[cells[0]] = cells
    return rows


def write_docs(rows):
    text = open(DOCS).read()
    if BEGIN not in text or END not in text:
        sys.exit("refresh.py: docs/matrix.md has no %s ... %s markers" % (BEGIN, END))
    table = ["| line | newest in the matrix | newest upstream | checked | how |", "|---|---|---|---|---|"]
    table += ["| " + " | ".join(r) + " |" for r in rows]
    text = text[:text.index(BEGIN) + len(BEGIN)] + "\n" + "\n".join(table) + "\n" + text[text.index(END):]
    tmp = DOCS + ".tmp"
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, DOCS)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    gpu_ids.add_source_options(ap)
    ap.add_argument("--write-docs", action="store_true")
    a = ap.parse_args()
    failed = False
    rows = []
    earlier = old_rows()

    def keep_or(line, row):
        rows.append(row if row else earlier.get(line, [line, "?", "not reached", "never", "?"]))

    print("== GPU ids (matrix/tools/gpu_ids.py)")
    cmd = [sys.executable, os.path.join(HERE, "gpu_ids.py")]
    for flag in gpu_ids.SOURCE_OPTIONS:
        if getattr(a, flag):
            cmd += ["--" + flag.replace("_", "-"), getattr(a, flag)]
    rc, out = run(cmd)
    print(out.rstrip())
    ids = load("gpu_ids.json")["gpu_ids"]
    readme = next((s for e in ids for s in e["sources"] if "open-gpu-kernel-modules" in s), "")
    tag = readme.split("/blob/")[1].split("/")[0] if "/blob/" in readme else "?"
    if rc == 0:
        m = re.search(r"^(\d+) PCI ids from", out, re.M)
        keep_or("NVIDIA GPUs (open kernel modules README, pci.ids)",
                ["NVIDIA GPUs (open kernel modules README, pci.ids)", "%d ids, README of %s" % (len(ids), tag),
                 "%s ids, README of %s" % (m.group(1) if m else "?", a.readme_ref or "the newest tag"), a.checked,
                 "`gpu_ids.py`"])
    else:
        failed = True
        keep_or("NVIDIA GPUs (open kernel modules README, pci.ids)", None)

    print("\n== package index")
    frameworks = load("frameworks.json")["frameworks"]
    for package in PYPI_LINES:
        entries = [f["version"] for f in frameworks if f["framework"] == package]
        newest_matrix = max(entries, key=version_key) if entries else "none"
        try:
            upstream = newest_on_pypi(package)
        except Exception as e:  # the network, a changed API: one line, not a traceback
            print("%-20s newest in the matrix %-8s  PyPI not reached: %s" % (package, newest_matrix, e))
            failed = True
            keep_or(package, None)
            continue
        state = "same" if covered(upstream, entries) else "NEW UPSTREAM: no entry covers it"
        print("%-20s newest in the matrix %-8s  PyPI %-10s %s" % (package, newest_matrix, upstream, state))
        keep_or(package, [package, newest_matrix, upstream, a.checked, "PyPI, `pypi_pins.py`"])
    rc, out = run([sys.executable, os.path.join(HERE, "pypi_pins.py"), "--newest", "2"] + PYPI_LINES)
    print(out.rstrip())
    failed = failed or rc != 0

    print("\n== lines read by hand (no tool here reaches them)")
    cuda = max((c["version"] for c in load("cuda.json")["cuda_releases"]), key=version_key)
    with_driver = max((c["version"] for c in load("cuda.json")["cuda_releases"] if c.get("min_driver_linux")), key=version_key)
    branch = max(b["branch"] for b in load("drivers.json")["driver_branches"])
    rocm = max((r["version"] for r in load("rocm.json")["rocm_releases"]), key=version_key)
    ngc = load("ngc.json")["ngc"]
    hand = [
        ("CUDA toolkit (release notes)", "%s (minimum driver through %s)" % (cuda, with_driver)),
        ("NVIDIA driver branches (lifecycle page)", "R%d" % branch),
        ("ROCm (release history)", rocm),
    ] + [("NGC %s (release notes)" % fw, max((n["release"] for n in ngc if n["framework"] == fw), key=version_key))
         for fw in ("pytorch", "tensorflow", "jax")]
    for line, newest in hand:
        print("%-42s newest in the matrix %s" % (line, newest))
        row = list(earlier.get(line, [line, newest, "?", "never", "by hand"]))
        row[1] = newest
        rows.append(row)

    if a.write_docs:
        write_docs(rows)
        print("\nwrote the upstream table of docs/matrix.md")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
