#!/usr/bin/env python3
"""Bench: the two paths to the driver's view of each GPU, side by side.

`gpucheck probe` reads ECC, remapped rows, clocks, power, temperature and
fabric state from `nvidia-smi -q -x`, and where nvidia-smi is absent or
fails, from NVML in a child process (probes/nvml_probe.cpp). On this
machine neither talks to a GPU: the nvidia-smi path runs a stand-in
`nvidia-smi` that prints a real 8-GPU capture
(tests/data/nvsmi/tesla-v100s-pcie-8gpu_460.xml, 8x V100S, driver 460.73.01),
and the NVML path loads the fake libnvidia-ml.so.1 (tests/fake_cuda) with
the same 8 GPUs; the fake libcuda answers for both. So the numbers are
gpucheck's own cost of each path (a process and an XML parse, against a
fork, a dlopen and a JSON answer), not the driver's: on a real host both
pay the driver's per-GPU work, and nvidia-smi asks for far more than
gpucheck reads (docs/PERFORMANCE.md, Driver health: nvidia-smi or NVML).

usage: bench/health_paths.py path/to/gpucheck path/to/build/tests/fake_cuda [--runs 21]
"""
import argparse
import os
import re
import resource
import statistics
import subprocess
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
CAPTURE = os.path.join(os.path.dirname(HERE), "tests", "data", "nvsmi", "tesla-v100s-pcie-8gpu_460.xml")


def gpus():
    xml = open(CAPTURE).read()
    return [(m.group(1), m.group(2)) for m in re.finditer(r'<gpu id="([^"]+)">\s*<product_name>([^<]+)</product_name>', xml)]


def bus(smi_id):
    return "0000" + smi_id[8:].lower() if len(smi_id) == 16 else smi_id.lower()


def setup(work):
    devices = gpus()
    with open(os.path.join(work, "cuda.txt"), "w") as f:
        f.write("driver_version 11020\n")
        for i, (smi_id, name) in enumerate(devices):
            f.write('device name="%s" uuid=GPU-00000000-0000-0000-0000-%012x cc=7.0 sms=80 mem=34089730048 bus=%s\n'
                    % (name, i, bus(smi_id)))
    with open(os.path.join(work, "nvml.txt"), "w") as f:
        f.write("driver 460.73.01\ncuda 11020\n")
        for smi_id, name in devices:
            f.write('device bus=%s name="%s" mem_mib=32510\n' % (bus(smi_id), name))
    smi_dir = os.path.join(work, "smi")
    os.makedirs(smi_dir)
    with open(os.path.join(smi_dir, "nvidia-smi"), "w") as f:
        f.write("#!/bin/sh\nexec cat %s\n" % CAPTURE)
    os.chmod(os.path.join(smi_dir, "nvidia-smi"), 0o755)
    empty = os.path.join(work, "none")
    os.makedirs(empty)
    return len(devices), smi_dir, empty


def run(gpucheck, env, runs):
    walls, cpus = [], []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        out = subprocess.run([gpucheck, "probe", "--json"], env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        walls.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append((after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime))
        if out.returncode != 0:
            raise SystemExit("gpucheck probe exited %d" % out.returncode)
    return statistics.median(walls) * 1000, statistics.median(cpus) * 1000, out.stdout.decode()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("gpucheck")
    ap.add_argument("fake_dir", help="the build's tests/fake_cuda (libcuda.so.1, libnvidia-ml.so.1)")
    ap.add_argument("--runs", type=int, default=21)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as work:
        n, smi_dir, empty = setup(work)
        base = {"LD_LIBRARY_PATH": os.path.abspath(a.fake_dir), "GPUCHECK_FAKE_CUDA": os.path.join(work, "cuda.txt"),
                "GPUCHECK_FAKE_NVML": os.path.join(work, "nvml.txt"), "HOME": work}
        smi = run(a.gpucheck, dict(base, PATH=smi_dir + ":/usr/bin:/bin"), a.runs)
        nvml = run(a.gpucheck, dict(base, PATH=empty + ":/usr/bin:/bin"), a.runs)
        # Each path must be the one that answered, with every GPU.
        if '"source": "NVML (' not in nvml[2] or "nvidia-smi -q -x" not in smi[2]:
            raise SystemExit("a path did not answer as set up")
        print("%d GPUs, gpucheck probe --json, median of %d runs" % (n, a.runs))
        print("%-12s %10s %10s" % ("path", "wall ms", "CPU ms"))
        print("%-12s %10.1f %10.1f" % ("nvidia-smi", smi[0], smi[1]))
        print("%-12s %10.1f %10.1f" % ("NVML", nvml[0], nvml[1]))
        print("NVML / nvidia-smi: wall %.2fx, CPU %.2fx" % (nvml[0] / smi[0], nvml[1] / smi[1]))


if __name__ == "__main__":
    main()
