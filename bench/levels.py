#!/usr/bin/env python3
"""Bench: what each --level costs, as a launcher's prolog runs it
(`gpucheck --level N check --json`, process start included), on this host
and replaying a fixture snapshot; with --all-fixtures, every snapshot under
tests/fixtures/hosts/ replayed too (the goal: each under 20 ms).
Interleaved rounds: every command once per round, so a load change hits all
of them alike. Medians in ms.

usage: bench/levels.py path/to/gpucheck [--runs 21] [--all-fixtures]
"""
import argparse
import os
import statistics
import subprocess
import time

HERE = os.path.dirname(os.path.abspath(__file__))
HOSTS = os.path.join(os.path.dirname(HERE), "tests", "fixtures", "hosts")
FIXTURE = os.path.join(HOSTS, "h100-sxm-8gpu")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("gpucheck")
    ap.add_argument("--runs", type=int, default=21)
    ap.add_argument("--all-fixtures", action="store_true", help="also replay every snapshot in tests/fixtures/hosts")
    a = ap.parse_args()
    cases = [
        ("this host, --level 1", [a.gpucheck, "--level", "1", "check", "--json"]),
        ("this host, --level 2 (default)", [a.gpucheck, "check", "--json"]),
        ("h100-sxm-8gpu replay, --level 1", [a.gpucheck, "--root", FIXTURE, "--level", "1", "check", "--json"]),
        ("h100-sxm-8gpu replay, --level 2", [a.gpucheck, "--root", FIXTURE, "check", "--json"]),
    ]
    if a.all_fixtures:
        for name in sorted(os.listdir(HOSTS)):
            root = os.path.join(HOSTS, name)
            if os.path.isdir(root) and name != "h100-sxm-8gpu":
                cases.append((f"{name} replay, --level 2", [a.gpucheck, "--root", root, "check", "--json"]))
    times = {name: [] for name, _ in cases}
    for _ in range(a.runs):
        for name, cmd in cases:
            t = time.perf_counter()
            subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
            times[name].append((time.perf_counter() - t) * 1000)
    base = statistics.median(times[cases[1][0]])
    print(f"| case | median ms | vs this host at --level 2 |")
    print("|---|---|---|")
    for name, _ in cases:
        m = statistics.median(times[name])
        print(f"| {name} | {m:.1f} | {m / base:.2f}x |")


if __name__ == "__main__":
    main()
