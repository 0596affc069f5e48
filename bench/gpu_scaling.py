#!/usr/bin/env python3
"""Bench: how `gpucheck check` and `gpucheck probe` grow with the number of
GPUs in a snapshot (the consolidation goal: 1,024 GPUs cost at most 4x what
256 cost, i.e. no step quadratic in GPUs).

Each snapshot is tests/fixtures/hosts/h100-sxm-8gpu with its first GPU
repeated N times: the sysfs PCI directory, /proc/driver/nvidia/gpus/*,
the GPU's section of the recorded `nvidia-smi -q` and its device in the
recorded CUDA driver API answer, each at its own synthetic bus id. The
snapshots are synthetic; only their size matters. Times are medians of
--runs runs of the whole command (process start included).

usage: bench/gpu_scaling.py path/to/gpucheck [--runs 7] [--gpus 8,64,256,1024]
"""
import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURE = os.path.join(os.path.dirname(HERE), "tests", "fixtures", "hosts", "h100-sxm-8gpu")
FIRST = "0000:18:00.0"


def address(i):
    return "%04x:%02x:00.0" % (i // 200, 0x10 + i % 200)


def smi_address(i):
    return "%08X:%02X:00.0" % (i // 200, 0x10 + i % 200)


def uuid(i):
    return "GPU-%08x-0000-0000-0000-%012x" % (0xb42dd28e, i)


def build(n, out):
    shutil.copytree(FIXTURE, out, symlinks=True)
    pci = os.path.join(out, "sys/bus/pci/devices")
    procs = os.path.join(out, "proc/driver/nvidia/gpus")
    template_pci = os.path.join(pci, FIRST)
    template_info = open(os.path.join(procs, FIRST, "information")).read()
    old_uuid = re.search(r"GPU UUID:\s*(\S+)", template_info).group(1)
    for d in os.listdir(procs):
        shutil.rmtree(os.path.join(procs, d))
    saved = os.path.join(out, "template-pci")
    shutil.move(template_pci, saved)
    for d in os.listdir(pci):
        if open(os.path.join(pci, d, "class")).read().startswith("0x03"):
            shutil.rmtree(os.path.join(pci, d))
    for i in range(n):
        shutil.copytree(saved, os.path.join(pci, address(i)), symlinks=True)
        os.makedirs(os.path.join(procs, address(i)))
        with open(os.path.join(procs, address(i), "information"), "w") as f:
            f.write(template_info.replace(FIRST, address(i)).replace(old_uuid, uuid(i)))
    shutil.rmtree(saved)

    smi_path = os.path.join(out, ".gpucheck/commands/nvidia-smi_-q.out")
    smi = open(smi_path).read()
    sections = re.split(r"(?m)^(?=GPU [0-9A-F]{8}:)", smi)
    head, first = sections[0], sections[1]
    head = re.sub(r"Attached GPUs\s*: \d+", "Attached GPUs                             : %d" % n, head)
    body = []
    for i in range(n):
        s = first.replace("00000000:18:00.0", smi_address(i)).replace(old_uuid, uuid(i))
        body.append(re.sub(r"Minor Number\s*: \d+", "Minor Number                          : %d" % i, s))
    with open(smi_path, "w") as f:
        f.write(head + "".join(body))

    manifest_path = os.path.join(out, ".gpucheck/manifest.json")
    m = json.load(open(manifest_path))
    answer = json.loads(m["calls"]["cuda-driver-api"]["output"])
    dev = answer["devices"][0]
    # CUDA spells bus ids in upper case ("0000:2A:00.0"), as the fixture's answer does.
    answer["devices"] = [dict(dev, ordinal=i, pci_bus_id=address(i).upper(), uuid=uuid(i)) for i in range(n)]
    m["calls"]["cuda-driver-api"]["output"] = json.dumps(answer)
    with open(manifest_path, "w") as f:
        json.dump(m, f)


def median_time(cmd, runs):
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        times.append(time.perf_counter() - t)
        if r.returncode not in (0, 1):
            raise SystemExit(f"{' '.join(cmd)} exited {r.returncode}: {r.stderr.decode()[-500:]}")
    return statistics.median(times)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("gpucheck")
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--gpus", default="8,64,256,1024")
    a = ap.parse_args()
    counts = [int(x) for x in a.gpus.split(",")]
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for n in counts:
            snap = os.path.join(tmp, f"gpus{n}")
            build(n, snap)
            probe = json.loads(subprocess.run([a.gpucheck, "--root", snap, "probe", "--json"], capture_output=True).stdout)
            seen = len(probe["cuda_driver_api"]["devices"])
            if seen != n or len(probe["nvidia_smi"]["gpus"]) != n:
                raise SystemExit(f"the {n}-GPU snapshot reads as {seen} GPUs: the bench would measure the wrong thing")
            check = median_time([a.gpucheck, "--root", snap, "check", "--json"], a.runs)
            probe_t = median_time([a.gpucheck, "--root", snap, "probe", "--json"], a.runs)
            rows.append((n, check, probe_t))
    print("| GPUs | check --json (ms) | probe --json (ms) |")
    print("|---:|---:|---:|")
    for n, c, p in rows:
        print(f"| {n} | {c * 1000:.1f} | {p * 1000:.1f} |")
    by = {n: (c, p) for n, c, p in rows}
    if 256 in by and 1024 in by:
        print(f"\n1,024 / 256 GPUs: check {by[1024][0] / by[256][0]:.2f}x, probe {by[1024][1] / by[256][1]:.2f}x")


if __name__ == "__main__":
    main()
