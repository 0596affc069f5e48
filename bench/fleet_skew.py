#!/usr/bin/env python3
"""Times `gpucheck fleet` on 10,000 collected `check --json` reports (no
lock), with its peak memory, and prints rows for docs/PERFORMANCE.md.

  bench/fleet_skew.py --gpucheck build/release/gpucheck [--nodes 10000] [--rounds 5]

Each report is the real `gpucheck --root tests/fixtures/hosts/h100-sxm-8gpu
check --json` (run once here), varied per node the way a fleet drifts, as
bench/fleet_verify.py does: most nodes identical; some on a driver patch
release, some on another driver branch (and its CUDA version), some with a
GPU missing, one GPU's link trained at x8, ECC off on one GPU, another
VBIOS, a Python environment installed (the venv-torch-cu121 fixture's
software section), a failing check (the driver-mismatch fixture's
findings and verdict); and two reports that cannot be read (one cut in
half, one garbage). The script checks that the output names those nodes.
Each run is `/usr/bin/time -v gpucheck fleet --format json DIR`: wall time,
maximum resident set size, and CPU time (user + system, all threads: what
the run costs whatever else the machine is doing).
"""
import argparse
import copy
import json
import os
import platform
import re
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
GOLDEN = os.path.join(REPO, "tests/fixtures/golden")


def check_report(gpucheck, host):
    """`gpucheck --root HOST check --json`, as a node would write it (exit 0 or 1)."""
    env = dict(os.environ, GPUCHECK_TODAY="2026-12-02")
    proc = subprocess.run([gpucheck, "--root", os.path.join(REPO, "tests/fixtures/hosts", host), "check", "--json"],
                          capture_output=True, text=True, env=env)
    if proc.returncode not in (0, 1):
        sys.exit(f"check on {host} exited {proc.returncode}: {proc.stderr}")
    return json.loads(proc.stdout)


def set_driver(facts, version, cuda=None):
    facts["nvidia_driver"]["kernel_module"]["version"] = version
    facts["nvidia_smi"]["driver_version"] = version
    if cuda:
        facts["nvidia_smi"]["cuda_version"] = cuda
        facts["cuda_driver_api"]["driver_version"] = cuda


def drop_gpu(facts):
    facts["nvidia_smi"]["gpus"].pop()
    facts["cuda_driver_api"]["devices"].pop()
    facts["nvidia_driver"]["gpus"].pop()


def make_fleet(base, software, failing, n, out_dir):
    """Writes n reports; returns {kind: [node file names]} of the variants."""
    kinds = {}
    for i in range(n):
        name = f"node{i:05d}.json"
        path = os.path.join(out_dir, name)
        if i == n // 2:
            text = json.dumps(base, indent=2)
            with open(path, "w") as f:
                f.write(text[: len(text) // 2])  # cut in half
            kinds.setdefault("unreadable", []).append(name)
            continue
        if i == n // 2 + 1:
            with open(path, "wb") as f:
                f.write(b"\x00\x01 not a report")
            kinds.setdefault("unreadable", []).append(name)
            continue
        r = copy.deepcopy(base)
        facts = r["facts"]
        facts["system"]["hostname"] = name[:-5]
        kind = None
        if i % 50 == 7:
            kind = "driver"
            set_driver(facts, "550.127.05", "12.4")
        elif i % 50 == 13:
            kind = "gpu_count"
            drop_gpu(facts)
        elif i % 50 == 21:
            kind = "torch"
            facts["software"] = software
        elif i % 100 == 33:
            kind = "pcie_width"
            facts["nvidia_smi"]["gpus"][3]["pcie"]["width_current"] = 8
        elif i % 100 == 41:
            kind = "ecc_mode"
            facts["nvidia_smi"]["gpus"][5]["ecc_mode"]["current"] = "Disabled"
        elif i % 200 == 55:
            kind = "vbios"
            facts["nvidia_smi"]["gpus"][0]["vbios"] = "96.00.89.00.01"
        elif i % 500 == 99:
            kind = "failing"
            r["verdict"] = failing["verdict"]
            r["findings"] = failing["findings"]
            r["counts"] = failing["counts"]
        elif i % 10 == 3:
            kind = "driver patch"
            set_driver(facts, "565.57.02")
        if kind:
            kinds.setdefault(kind, []).append(name)
        with open(path, "w") as f:
            json.dump(r, f, indent=2)
    return kinds


def verify_output(out, kinds):
    j = json.loads(out)
    skew = {s["field"]: s for s in j["skew"]}
    off = lambda field: {n for o in skew[field]["others"] for n in o["nodes"]}
    problems = []
    # torch is on the Python-environment nodes only: the rest do not show it.
    if skew["torch"]["known_nodes"] != len(kinds["torch"]):
        problems.append(f"torch: known on {skew['torch']['known_nodes']} nodes, expected {len(kinds['torch'])}")
    for field in ("driver", "gpu_count", "pcie_width", "ecc_mode", "vbios"):
        expected = set(kinds[field]) | (set(kinds["driver patch"]) if field == "driver" else set())
        if off(field) != expected:
            problems.append(f"{field}: off the majority {len(off(field))} nodes, expected {len(expected)}")
    if set(j["failing_nodes"]) != set(kinds["failing"]):
        problems.append(f"failing nodes {len(j['failing_nodes'])}, expected {len(kinds['failing'])}")
    if {u["report"] for u in j["unreadable"]} != set(kinds["unreadable"]):
        problems.append(f"unreadable {j['unreadable']}")
    return problems


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--gpucheck", required=True)
    ap.add_argument("--nodes", type=int, default=10000)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--keep", help="write the reports to this directory (kept) instead of a temporary one")
    args = ap.parse_args()
    gpucheck = os.path.abspath(args.gpucheck)

    base = check_report(gpucheck, "h100-sxm-8gpu")
    failing = check_report(gpucheck, "driver-mismatch")
    with open(os.path.join(GOLDEN, "venv-torch-cu121.json")) as f:
        software = json.load(f)["software"]
    with tempfile.TemporaryDirectory(prefix="gpucheck-fleet-") as tmp:
        fleet = args.keep or os.path.join(tmp, "fleet")
        os.makedirs(fleet, exist_ok=True)
        kinds = make_fleet(base, software, failing, args.nodes, fleet)
        size = sum(os.path.getsize(os.path.join(fleet, f)) for f in os.listdir(fleet))
        argv = ["/usr/bin/time", "-v", gpucheck, "fleet", "--format", "json", fleet]
        times, rss, cpu = [], [], []
        out = None
        for _ in range(args.rounds + 1):  # the first run warms the page cache
            start = time.perf_counter()
            proc = subprocess.run(argv, capture_output=True, text=True)
            times.append(time.perf_counter() - start)
            if proc.returncode != 1:  # a failing node and two unreadable reports: exit 1
                sys.exit(f"fleet exited with {proc.returncode}: {proc.stderr[-2000:]}")
            rss.append(int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", proc.stderr).group(1)))
            cpu.append(sum(float(re.search(rf"{k} time \(seconds\): ([\d.]+)", proc.stderr).group(1)) for k in ("User", "System")))
            out = proc.stdout
        times, rss, cpu = times[1:], rss[1:], cpu[1:]

    problems = verify_output(out, kinds)
    if problems:
        sys.exit("output wrong: " + "; ".join(problems))
    med = statistics.median(times)
    print(f"| `gpucheck fleet --format json` of {args.nodes} `check --json` reports ({size / 1e6:.0f} MB JSON) "
          f"| {med * 1000:.0f} ms | {min(times) * 1000:.0f} ms | {max(times) * 1000:.0f} ms "
          f"| {max(rss) / 1024:.0f} MiB | {statistics.median(cpu) * 1000:.0f} ms "
          f"| {platform.node()}, {os.cpu_count()} CPUs, {args.rounds} rounds, "
          f"{time.strftime('%Y-%m-%d')}; output checked |")
    if med >= 1.0:
        print(f"goal missed: median {med:.2f} s >= 1 s", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
