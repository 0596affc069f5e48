#!/usr/bin/env python3
"""Times `gpucheck verify --fleet` of one lock against 1,000 collected JSON
reports (a fleet), and prints a line for docs/PERFORMANCE.md.

  bench/fleet_verify.py --gpucheck build/release/gpucheck [--nodes 1000] [--rounds 5]

The reports are the real 8-GPU H100 fixture's golden `probe --json`
(tests/fixtures/hosts/h100-sxm-8gpu), varied per node the way a fleet drifts:
most nodes identical, some on a driver patch release (within policy), some on
another driver branch, some with a GPU missing, some with a Python
environment installed (the software section of the venv-torch-cu121 fixture's
report). The lock is `gpucheck lock` of the same fixture. The output must
group the nodes into those few kinds, which the script checks.
"""
import argparse
import copy
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)


GOLDEN = os.path.join(REPO, "tests/fixtures/golden")


def golden(name):
    """The fixture's checked-in `probe --json` (tests/fixtures/regen-golden.sh)."""
    with open(os.path.join(GOLDEN, name + ".json")) as f:
        return json.load(f)


def set_driver(report, version):
    report["nvidia_driver"]["kernel_module"]["version"] = version
    report["nvidia_smi"]["driver_version"] = version


def drop_gpu(report):
    report["nvidia_smi"]["gpus"].pop()
    report["cuda_driver_api"]["devices"].pop()
    report["nvidia_driver"]["gpus"].pop()


def make_fleet(base, software, n, out_dir):
    """Writes n reports; returns {kind: count} of what was written."""
    kinds = {}
    for i in range(n):
        r = copy.deepcopy(base)
        r["system"]["hostname"] = f"node{i:04d}"
        if i % 50 == 7:
            kind = "other driver branch"
            set_driver(r, "550.127.05")
        elif i % 50 == 13:
            kind = "a GPU missing"
            drop_gpu(r)
        elif i % 50 == 21:
            kind = "a Python environment installed"
            r["software"] = software
        elif i % 10 == 3:
            kind = "driver patch within branch"
            set_driver(r, "565.57.02")
        else:
            kind = "identical"
        kinds[kind] = kinds.get(kind, 0) + 1
        with open(os.path.join(out_dir, f"node{i:04d}.json"), "w") as f:
            json.dump(r, f, indent=1)
    return kinds


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--gpucheck", required=True)
    ap.add_argument("--nodes", type=int, default=1000)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--argv", help="time this command instead, with {lock} and {fleet} substituted "
                                   "(e.g. a build of the same verify code outside the CLI)")
    args = ap.parse_args()
    gpucheck = os.path.abspath(args.gpucheck)

    base = golden("h100-sxm-8gpu")
    software = golden("venv-torch-cu121")["software"]
    with tempfile.TemporaryDirectory(prefix="gpucheck-fleet-") as tmp:
        fleet = os.path.join(tmp, "fleet")
        os.mkdir(fleet)
        kinds = make_fleet(base, software, args.nodes, fleet)
        size = sum(os.path.getsize(os.path.join(fleet, f)) for f in os.listdir(fleet))
        lock = os.path.join(GOLDEN, "h100-sxm-8gpu.lock")  # `gpucheck lock` of the same fixture
        argv = [gpucheck, "verify", lock, "--fleet", fleet]
        if args.argv:
            argv = [a.format(lock=lock, fleet=fleet) for a in args.argv.split()]
        times = []
        out = None
        for _ in range(args.rounds + 1):  # the first run warms the page cache
            start = time.perf_counter()
            proc = subprocess.run(argv, capture_output=True, text=True)
            times.append(time.perf_counter() - start)
            if proc.returncode not in (0, 1):
                sys.exit(f"verify exited with {proc.returncode}: {proc.stderr}")
            out = proc.stdout
        times = times[1:]

    # The groups: healthy + patch releases together, then one per drift kind.
    groups = [line for line in out.splitlines() if line and line[0].isdigit()]
    expected = len(kinds) - 1  # "identical" and "driver patch within branch" share the no-drift group
    if len(groups) != expected:
        sys.exit(f"expected {expected} groups, got {len(groups)}:\n{out}")
    print(out)
    med = statistics.median(times)
    what = "`gpucheck verify --fleet`" if not args.argv else f"`{args.argv.split()[0]}`"
    print(f"| {what} of {args.nodes} reports ({size / 1e6:.1f} MB JSON, {len(groups)} groups) "
          f"| {med * 1000:.0f} ms | {min(times) * 1000:.0f} ms | {max(times) * 1000:.0f} ms "
          f"| {platform.node()}, {os.cpu_count()} CPUs, {args.rounds} rounds, {time.strftime('%Y-%m-%d')} |")
    if med >= 1.0:
        print(f"goal missed: median {med:.2f} s >= 1 s", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
