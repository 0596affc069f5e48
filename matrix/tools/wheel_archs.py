#!/usr/bin/env python3
"""Reads the architectures a released wheel really carries code for.

Downloads one wheel from the package index (`pip download --no-deps`),
opens every shared object in it that holds CUDA code, and lists with
`cuobjdump --list-elf` / `--list-ptx` which SASS architectures (sm_XX) and
which PTX each carries: the arch_list and ptx of a matrix/frameworks.json
entry, read from the build itself rather than from release notes. cuobjdump
comes from PATH, the CUDA toolkit, or else NVIDIA's nvidia-cuda-cuobjdump
wheel, fetched into the same temporary directory.

An architecture is listed as the build's when its SASS is in at least half
as many kernels as the best-covered one's (a library compiles some kernels
for some architectures only, so the counts differ even among its main
targets); those in fewer are a few special kernels (sm_90a for Hopper-only
paths, sm_103 for one GPU) and are printed apart, as counts to judge by.

Usage: matrix/tools/wheel_archs.py PACKAGE==VERSION [--lib SUBSTRING]
Example: matrix/tools/wheel_archs.py torch==2.15.0 --lib libtorch_cuda.so
"""
import argparse
import collections
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile

TIMEOUT_S = 900  # a torch wheel is half a gigabyte


def run(*cmd):
    return subprocess.run(cmd, capture_output=True, text=True, timeout=TIMEOUT_S)


def download(spec, into):
    r = run(sys.executable, "-m", "pip", "download", "--no-deps", "--quiet", "-d", into, spec)
    if r.returncode != 0:
        sys.exit(f"wheel_archs: pip download {spec}: {r.stderr.strip()}")
    wheels = glob.glob(os.path.join(into, "*.whl"))
    if not wheels:
        sys.exit(f"wheel_archs: pip download {spec} gave no wheel (an sdist only?)")
    return wheels[0]


def cuobjdump(tmp):
    for candidate in (shutil.which("cuobjdump"), "/usr/local/cuda/bin/cuobjdump"):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    wheel = download("nvidia-cuda-cuobjdump", os.path.join(tmp, "cuobjdump"))
    with zipfile.ZipFile(wheel) as z:
        z.extractall(os.path.join(tmp, "cuobjdump", "x"))
    found = glob.glob(os.path.join(tmp, "cuobjdump", "x", "**", "bin", "cuobjdump"), recursive=True)
    if not found:
        sys.exit("wheel_archs: no cuobjdump in the nvidia-cuda-cuobjdump wheel")
    os.chmod(found[0], 0o755)
    return found[0]


def archs(tool, path, what):
    out = run(tool, f"--list-{what}", path)
    return collections.Counter(re.findall(r"\.(sm_\d+[a-z]?)\.", out.stdout))


def cc(sm):
    digits = re.match(r"sm_(\d+)", sm).group(1)
    return f"{digits[:-1]}.{digits[-1]}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("spec", help="PACKAGE==VERSION")
    ap.add_argument("--lib", default="", help="only shared objects whose path contains this")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        wheel = download(a.spec, os.path.join(tmp, "wheel"))
        tool = cuobjdump(tmp)
        print(f"{os.path.basename(wheel)} (cuobjdump: {run(tool, '--version').stdout.strip().splitlines()[-1]})")
        with zipfile.ZipFile(wheel) as z:
            libs = [n for n in z.namelist() if re.search(r"\.so(\.\d+)*$", n) and a.lib in n]
            for name in libs:
                path = z.extract(name, os.path.join(tmp, "x"))
                elf, ptx = archs(tool, path, "elf"), archs(tool, path, "ptx")
                os.remove(path)
                if not elf and not ptx:
                    continue
                top = max(elf.values(), default=0)
                main = {s for s, n in elf.items() if 2 * n >= top}
                main_list = sorted(main, key=lambda s: int(re.sub(r"\D", "", s)))
                rest = sorted(s for s in elf if s not in main)
                print(f"  {name}")
                print(f"    arch_list: {sorted({cc(s) for s in main_list}, key=lambda c: [int(x) for x in c.split('.')])}"
                      f"  (SASS in {min(elf[s] for s in main)} to {top} kernels each)" if main else "    arch_list: []")
                if rest:
                    print(f"    fewer kernels: {', '.join(f'{s} ({elf[s]})' for s in rest)}")
                print(f"    ptx: {', '.join(f'{s} ({n})' for s, n in sorted(ptx.items())) or 'none'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
