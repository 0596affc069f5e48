#!/usr/bin/env python3
"""Bench: `gpucheck check` on the 8-GPU H100 fixture, and how rule evaluation
grows with the number of rules (synthetic matrices of up to 10,000 rules).

Each synthetic matrix is the project's matrix plus N generated rules (named
synthetic-*), copies of the shapes real rules have: host comparisons, per-GPU
version and list comparisons, per-framework and framework-on-GPU
comparisons with another fact. None of them fires, so the output stays the
same and only evaluation grows. Times are medians of --runs runs of the whole
command (process start, matrix validation, probing the snapshot, judging).

usage: bench/rules_scaling.py path/to/gpucheck [--runs 15] [--fixture tests/fixtures/hosts/h100-sxm-8gpu]
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

SHAPES = [
    ("host", {"fact": "driver.version", "op": "<", "value": "100.{i}"}),
    ("gpu", {"all": [{"fact": "gpu.vendor", "op": "==", "value": "nvidia"},
                     {"fact": "gpu.compute_capability", "op": "<", "value": "1.{i}"}]}),
    ("gpu", {"fact": "gpu.clock_events", "op": "contains", "value": "synthetic_{i}"}),
    ("framework", {"all": [{"fact": "framework.name", "op": "==", "value": "synthetic-{i}"},
                           {"fact": "driver.version", "op": "<", "other": "framework.cuda_min_driver"}]}),
    ("framework_gpu", {"all": [{"fact": "build.runs_on_gpu", "op": "==", "value": False},
                               {"fact": "framework.name", "op": "==", "value": "synthetic-{i}"}]}),
]


def fill(obj, i):
    if isinstance(obj, dict):
        return {k: fill(v, i) for k, v in obj.items()}
    if isinstance(obj, list):
        return [fill(v, i) for v in obj]
    if isinstance(obj, str):
        return obj.replace("{i}", str(i))
    return obj


def synthetic_rules(n):
    rules = []
    for i in range(n):
        scope, when = SHAPES[i % len(SHAPES)]
        rules.append({"id": f"synthetic-{i}", "category": "known-bug", "severity": "warning", "scope": scope,
                      "title": f"Synthetic rule {i}", "when": fill(when, i), "message": f"synthetic {i}",
                      "fix": "none", "sources": ["https://example.org/synthetic"]})
    return rules


def time_check(binary, matrix, fixture, runs):
    args = [binary, "--root", fixture, "check", "--json"] + (["--matrix", matrix] if matrix else [])
    out = []
    for _ in range(runs):
        t = time.perf_counter()
        r = subprocess.run(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        out.append((time.perf_counter() - t) * 1000)
        if r.returncode not in (0, 1):
            raise SystemExit(f"check failed ({r.returncode}): {r.stderr.decode()}")
    return statistics.median(out), min(out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("gpucheck")
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--fixture", default=os.path.join(ROOT, "tests/fixtures/hosts/h100-sxm-8gpu"))
    a = ap.parse_args()
    med, lo = time_check(a.gpucheck, None, a.fixture, a.runs)
    print(f"check, embedded matrix, {os.path.basename(a.fixture)}: median {med:.1f} ms, min {lo:.1f} ms")
    print("| synthetic rules | median | min | extra per 1,000 rules |")
    print("|---|---|---|---|")
    base = None
    with tempfile.TemporaryDirectory() as tmp:
        for n in (0, 1000, 2500, 5000, 10000):
            d = os.path.join(tmp, f"m{n}")
            shutil.copytree(os.path.join(ROOT, "matrix"), d)
            with open(os.path.join(d, "rules", "synthetic.json"), "w") as f:
                json.dump({"schema": "gpucheck.matrix/1", "rules": synthetic_rules(n)}, f)
            med, lo = time_check(a.gpucheck, d, a.fixture, a.runs)
            base = med if base is None else base
            per = "" if n == 0 else f"{(med - base) / n * 1000:.2f} ms"
            print(f"| {n:,} | {med:.1f} ms | {lo:.1f} ms | {per} |")


if __name__ == "__main__":
    main()
