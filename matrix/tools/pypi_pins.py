#!/usr/bin/env python3
"""Re-derives framework entries of the matrix from the package index itself.

For each release of vLLM, torch and JAX's CUDA plugins, asks pip for the
release's metadata (`pip install --dry-run --no-deps --report`: pip reads the
wheel's METADATA, which the index serves beside the wheel, so nothing large
is downloaded) and reads its Requires-Dist pins:

  vllm X          -> torch==Y            -> the CUDA of torch Y's default wheel
  torch Y         -> nvidia-cuda-runtime -> the CUDA the index's default wheel is built for
  jax-cudaNN-plugin Z -> jax-cudaNN-pjrt pin, and the CUDA / cuDNN floors of its
                         [with-cuda] extra (nvidia-cuda-runtime, nvidia-cudnn);
                         the cuDNN floor is compared with the entry's `cudnn`

and prints what it found beside what matrix/frameworks.json says, one line a
release, with DIFF where they disagree or the matrix has no entry. It changes
nothing: a maintainer reads the diff and edits the JSON, citing
https://pypi.org/project/<name>/<version>/ with "checked": "wheel <date>".

Usage: matrix/tools/pypi_pins.py [--newest N] [PACKAGE ...]
       (default: vllm torch jax-cuda12-plugin jax-cuda13-plugin, newest 6 each)
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
# The CUDA runtime a wheel pins: NVIDIA's nvidia-cuda-runtime(-cuNN) wheels,
# or (torch 2.14 on) the cuda-toolkit metapackage with extras.
CUDA_RUNTIME = r"cuda-toolkit(?:\[[^\]]*\])?|nvidia-cuda-runtime(?:-cu\d+)?"
CUDNN = r"nvidia-cudnn(?:-cu\d+)?"
FRAMEWORKS = os.path.join(HERE, "..", "frameworks.json")
PIP_TIMEOUT_S = 120


def pip(*args):
    return subprocess.run([sys.executable, "-m", "pip", *args], capture_output=True, text=True, timeout=PIP_TIMEOUT_S)


def versions(package):
    """Every release the index has, newest first (pip index versions)."""
    r = pip("index", "versions", package)
    m = re.search(r"Available versions: (.*)", r.stdout)
    return [v.strip() for v in m.group(1).split(",")] if m else []


def requires_dist(package, version):
    """The release's Requires-Dist lines, from pip's installation report."""
    with tempfile.TemporaryDirectory() as tmp:
        report = os.path.join(tmp, "report.json")
        r = pip("install", "--dry-run", "--ignore-installed", "--no-deps", "--quiet", "--report", report,
                f"{package}=={version}")
        if r.returncode != 0 or not os.path.exists(report):
            raise RuntimeError(f"{package}=={version}: pip said: {(r.stderr or r.stdout).strip().splitlines()[-1:]}")
        with open(report) as f:
            installs = json.load(f)["install"]
    return installs[0]["metadata"].get("requires_dist", []) if installs else []


def pin(reqs, name_re):
    """(name, operator, version) of the first requirement named by name_re:
    its == pin, else its >= floor (a specifier list such as "<10,>=9.8" gives
    the floor)."""
    for req in reqs:
        m = re.match(rf"^({name_re})(?![A-Za-z0-9_.-])\s*([^;]*)", req)  # torch, not torchaudio
        if not m:
            continue
        spec = m.group(2)
        for op in ("==", ">=", "~="):
            found = re.search(rf"{op}\s*([0-9][^,;\s]*)", spec)
            if found:
                return m.group(1), op, found.group(1)
    return None


def major_minor(v):
    return ".".join(v.split(".")[:2])


def torch_cuda(version, cache):
    if version not in cache:
        found = pin(requires_dist("torch", version), CUDA_RUNTIME)
        cache[version] = major_minor(found[2]) if found else None
    return cache[version]


def matrix_entries(framework):
    with open(FRAMEWORKS) as f:
        return [e for e in json.load(f)["frameworks"] if e["framework"] == framework]


def matrix_values(framework, version, field):
    """`field` of the matrix's most specific entries for this release (an
    entry "2.14" covers 2.14.x; "0.4.31" beats "0.4"), as the matrix's own
    lookup orders them."""
    covering = [e for e in matrix_entries(framework) if version == e["version"] or version.startswith(e["version"] + ".")]
    if not covering:
        return set()
    most = max(len(e["version"].split(".")) for e in covering)
    return {e[field] for e in covering if len(e["version"].split(".")) == most and e.get(field)}


def line(package, version, derived, framework=None, value=None, field="cuda"):
    known = matrix_values(framework, version, field) if framework else set()
    verdict = ""
    if framework and value:
        verdict = "  same" if value in known else f"  DIFF: matrix {field} {sorted(known) or 'no entry'}"
    print(f"{package:20} {version:12} {derived}{verdict}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("packages", nargs="*", default=["vllm", "torch", "jax-cuda12-plugin", "jax-cuda13-plugin"])
    ap.add_argument("--newest", type=int, default=6, help="releases per package, newest first (default 6)")
    a = ap.parse_args()
    torch_cache = {}
    for package in a.packages:
        for v in versions(package)[: a.newest]:
            try:
                reqs = requires_dist(package, v)
                if package == "vllm":
                    t = pin(reqs, r"torch")
                    cuda = torch_cuda(t[2], torch_cache) if t and t[1] == "==" else None
                    line(package, v, f"torch{t[1]}{t[2]} -> CUDA {cuda or '?'} (torch's default wheel)" if t else "no torch pin",
                         "vllm", cuda)
                elif package == "torch":
                    rt = pin(reqs, CUDA_RUNTIME)
                    dnn = pin(reqs, CUDNN)
                    cuda = major_minor(rt[2]) if rt else None
                    found = f"default wheel: CUDA {cuda} ({rt[0].split('[')[0]}{rt[1]}{rt[2]})" if rt else "default wheel: no CUDA runtime pin (CPU?)"
                    line(package, v, found + (f", cuDNN {dnn[2]}" if dnn else ""), "torch", cuda)
                else:
                    pjrt = pin(reqs, r"jax-cuda\d+-pjrt")
                    rt = pin(reqs, CUDA_RUNTIME)
                    dnn = pin(reqs, CUDNN)
                    parts = [f"pjrt{pjrt[1]}{pjrt[2]}" if pjrt else "no pjrt pin",
                             f"CUDA runtime {rt[1]}{rt[2]}" if rt else "no CUDA runtime pin",
                             f"cuDNN {dnn[1]}{dnn[2]}" if dnn else "no cuDNN pin"]
                    # The matrix's cudnn is the build's; the pin is its floor.
                    line(package, v, ", ".join(parts), package, major_minor(dnn[2]) if dnn else None, "cudnn")
            except (RuntimeError, subprocess.TimeoutExpired, KeyError, ValueError) as e:
                print(f"{package:20} {v:12} could not read: {e}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
