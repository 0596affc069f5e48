#!/usr/bin/env python3
"""Times gpucheck (a plain `gpucheck`, the prolog's command; `check --json`;
`probe --json`) against what users would otherwise run, on the same host, in
interleaved rounds (A B A B …) so that drift in the machine's load falls on
all alike. Prints a Markdown table for docs/PERFORMANCE.md.

  bench/compare_probe.py --gpucheck build/release/gpucheck [--rounds 20] [--doctors] [--before OLD]

Peers, each timed when present: PyTorch's collect_env (Debian's python3-torch,
run by /usr/bin/python3), `nvidia-smi -q -x`; with --doctors, the PyPI
doctors `env-doctor check` and `cuda-doctor diagnose`, installed by this
script in a throwaway venv (needs the package index). Also the 8-GPU fixture
replayed with --root, which has no peer (the goal is an absolute bound).
With --before, an older gpucheck binary (a build of the commit before a
change) runs each gpucheck command in the same rounds, labelled "(before)".
"""
import argparse
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time


def run_once(argv):
    """Wall seconds and CPU seconds (user + system, the children's) of one run."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    elapsed = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    # gpucheck check exits 1 when it finds an error: a verdict, not a failure.
    if proc.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(argv)} exited with {proc.returncode}")
    return elapsed, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--gpucheck", required=True)
    ap.add_argument("--rounds", type=int, default=20)
    ap.add_argument("--fixture", default="tests/fixtures/hosts/h100-sxm-8gpu")
    ap.add_argument("--doctors", action="store_true", help="also time env-doctor and cuda-doctor from PyPI")
    ap.add_argument("--before", help="an older gpucheck binary, timed beside each gpucheck command")
    args = ap.parse_args()

    cases = {}
    for args_ in ([], ["--level", "1"], ["check", "--json"], ["probe", "--json"]):
        name = " ".join(["gpucheck"] + args_)
        cases[name] = [args.gpucheck] + args_
        if args.before:
            cases[name + " (before)"] = [args.before] + args_
    if subprocess.run(["/usr/bin/python3", "-c", "import torch"], capture_output=True).returncode == 0:
        cases["python3 -m torch.utils.collect_env"] = ["/usr/bin/python3", "-m", "torch.utils.collect_env"]
    else:
        print("note: /usr/bin/python3 has no torch (apt-get install python3-torch); collect_env not timed", file=sys.stderr)
    smi = shutil.which("nvidia-smi")
    if smi:
        cases["nvidia-smi -q -x"] = [smi, "-q", "-x"]
    if os.path.isdir(args.fixture):
        cases[f"gpucheck --root {args.fixture} probe --json"] = [args.gpucheck, "--root", args.fixture, "probe", "--json"]
    with tempfile.TemporaryDirectory() as venv:
        if args.doctors:
            versions = doctors(venv)
            print(f"doctors: {versions}", file=sys.stderr)
            cases["env-doctor check"] = [f"{venv}/bin/env-doctor", "check"]
            cases["cuda-doctor diagnose"] = [f"{venv}/bin/cuda-doctor", "diagnose"]
        times = measure(cases, args.rounds)
    report(times, args.rounds)


def doctors(venv):
    """Installs the PyPI doctors in a throwaway venv; returns their versions."""
    subprocess.run([sys.executable, "-m", "venv", venv], check=True)
    subprocess.run([f"{venv}/bin/pip", "install", "-q", "env-doctor", "cuda-doctor"], check=True)
    out = subprocess.run([f"{venv}/bin/pip", "list", "--format=freeze"], capture_output=True, text=True, check=True).stdout
    return ", ".join(l for l in out.splitlines() if "doctor" in l)


def measure(cases, rounds):
    for argv in cases.values():  # warm the page cache once
        run_once(argv)
    times = {name: [] for name in cases}
    for _ in range(rounds):
        for name, argv in cases.items():
            times[name].append(run_once(argv))
    return times


def report(times, rounds):
    base = statistics.median(w for w, _ in times["gpucheck"])
    print(f"Host: {platform.node()} ({platform.machine()}, {os.cpu_count()} CPUs), "
          f"{rounds} interleaved rounds, {time.strftime('%Y-%m-%d')}\n")
    print("| command | median | min | max | CPU (median) | ratio to `gpucheck` |")
    print("|---|---|---|---|---|---|")
    for name, runs in times.items():
        wall = [w for w, _ in runs]
        med = statistics.median(wall)
        cpu = statistics.median(c for _, c in runs)
        print(f"| `{name}` | {med * 1000:.1f} ms | {min(wall) * 1000:.1f} ms | {max(wall) * 1000:.1f} ms | "
              f"{cpu * 1000:.1f} ms | {med / base:.1f}× |")


if __name__ == "__main__":
    main()
