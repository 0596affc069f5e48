#!/usr/bin/env python3
"""Re-derives framework entries of the matrix from the package index itself.

For each release of a package, reads the METADATA of one of its wheels where
it lies on the index (by HTTP range requests: a torch wheel is a gigabyte,
its METADATA a few kilobytes; a release with only an sdist is asked of pip,
which builds its metadata) and reads its Requires-Dist pins:

  torch Y             -> nvidia-cuda-runtime / cuda-toolkit pin: the CUDA of
                         PyPI's default wheel, compared with the `pypi_default`
                         entry's `cuda`; its cuDNN pin
  vllm X, xformers X  -> torch==Y, compared with the entry's `torch` (their
                         own CUDA is the toolkit in their cubins:
                         wheel_archs.py)
  jax-cudaNN-plugin Z -> jax-cudaNN-pjrt pin, and the CUDA / cuDNN floors of its
                         [with-cuda] extra, the cuDNN floor compared with the
                         entry's `cudnn`
  tensorflow T        -> the CUDA runtime and cuDNN floors of its [and-cuda]
                         extra, compared with the entry's `cuda` and `cudnn`

and prints what it found beside what matrix/frameworks.json says, one line a
release, with `same`, or DIFF where they disagree or the matrix has no entry.
Other packages: their Requires-Dist as it is. It changes nothing: a
maintainer reads the diff and edits the JSON, citing
https://pypi.org/project/<name>/<version>/ with "checked": "wheel <date>".
A release it cannot read is a line saying why; the exit status is then 1.

Usage: matrix/tools/pypi_pins.py [--newest N | --since VERSION] [PACKAGE ...]
       (default: vllm torch jax-cuda12-plugin jax-cuda13-plugin, newest 6 each;
       pre-releases and yanked releases are left out)
"""
import argparse
import email.parser
import io
import json
import os
import re
import subprocess
import sys
import tempfile
import urllib.error
import urllib.request
import zipfile

try:
    from packaging.version import InvalidVersion, Version
except ImportError:  # pip carries its own copy
    from pip._vendor.packaging.version import InvalidVersion, Version

HERE = os.path.dirname(os.path.abspath(__file__))
# The CUDA runtime a wheel pins: NVIDIA's nvidia-cuda-runtime(-cuNN) wheels,
# or (torch 2.14 on) the cuda-toolkit metapackage with extras.
CUDA_RUNTIME = r"cuda-toolkit(?:\[[^\]]*\])?|nvidia-cuda-runtime(?:-cu\d+)?"
CUDNN = r"nvidia-cudnn(?:-cu\d+)?"
FRAMEWORKS = os.path.join(HERE, "..", "frameworks.json")
SIMPLE = "https://pypi.org/simple/{}/"
HTTP_TIMEOUT_S = 60
PIP_TIMEOUT_S = 300  # an sdist's metadata is built


class Unreadable(Exception):
    """A release or the index could not be read; the message says why."""


def pip(*args):
    try:
        return subprocess.run([sys.executable, "-m", "pip", *args], capture_output=True, text=True, timeout=PIP_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        raise Unreadable(f"pip {args[0]} took more than {PIP_TIMEOUT_S} s") from None


def parse_version(v):
    """PEP 440 order (pip's own packaging); None for what is not a version."""
    try:
        return Version(v)
    except InvalidVersion:
        return None


def fetch(url, headers=None):
    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers=headers or {}), timeout=HTTP_TIMEOUT_S) as r:
            return r.read(), r.headers
    except (urllib.error.URLError, OSError) as e:
        raise Unreadable(f"{url}: {getattr(e, 'reason', None) or e}") from None


_files = {}


def index_files(package):
    """The index's files of a package (PEP 691 JSON), cached per package."""
    if package not in _files:
        body, _ = fetch(SIMPLE.format(package), {"Accept": "application/vnd.pypi.simple.v1+json"})
        try:
            _files[package] = json.loads(body)["files"]
        except (ValueError, KeyError) as e:
            raise Unreadable(f"{SIMPLE.format(package)}: not the index's JSON ({e})") from None
    return _files[package]


def file_version(filename):
    """A wheel's or sdist's version from its file name (PEP 427, PEP 625)."""
    if filename.endswith(".whl"):
        return filename.split("-")[1]
    m = re.match(r"^.+?-(\d[^-]*)\.(?:tar\.gz|zip)$", filename)
    return m.group(1) if m else None


def versions(package):
    """Every release the index has a file for, not yanked and not a
    pre-release, newest first (whatever Python its wheels are for)."""
    found = set()
    for f in index_files(package):
        v = file_version(f["filename"])
        parsed = parse_version(v) if v else None
        if parsed and not parsed.is_prerelease and not f.get("yanked"):
            found.add(v)
    return sorted(found, key=parse_version, reverse=True)


class HttpFile(io.RawIOBase):
    """A remote file read by HTTP range requests, for zipfile."""

    def __init__(self, url):
        super().__init__()
        self.url, self.pos = url, 0
        _, headers = fetch(url, {"Range": "bytes=0-0"})
        m = re.search(r"/(\d+)$", headers.get("Content-Range", ""))
        if not m:
            raise Unreadable(f"{url}: the server does not answer range requests")
        self.size = int(m.group(1))

    def seekable(self):
        return True

    def readable(self):
        return True

    def seek(self, offset, whence=io.SEEK_SET):
        self.pos = {io.SEEK_SET: 0, io.SEEK_CUR: self.pos, io.SEEK_END: self.size}[whence] + offset
        return self.pos

    def tell(self):
        return self.pos

    def readinto(self, b):
        end = min(self.size, self.pos + len(b))
        if end <= self.pos:
            return 0
        body, _ = fetch(self.url, {"Range": f"bytes={self.pos}-{end - 1}"})
        b[: len(body)] = body
        self.pos += len(body)
        return len(body)


def wheel_requires_dist(url):
    with zipfile.ZipFile(io.BufferedReader(HttpFile(url), buffer_size=1 << 16)) as z:
        name = next((n for n in z.namelist() if n.endswith(".dist-info/METADATA")), None)
        if not name:
            raise Unreadable(f"{url}: no .dist-info/METADATA in the wheel")
        meta = email.parser.Parser().parsestr(z.read(name).decode("utf-8", "replace"), headersonly=True)
    return meta.get_all("Requires-Dist") or []


def requires_dist(package, version):
    """The release's Requires-Dist lines: the METADATA of one of its wheels
    (Linux x86-64 preferred: the build the matrix describes); a release with
    only an sdist is asked of pip, which builds its metadata."""
    wheels = [f for f in index_files(package) if f["filename"].endswith(".whl") and file_version(f["filename"]) == version]
    if wheels:
        best = min(wheels, key=lambda f: ("x86_64" not in f["filename"], "linux" not in f["filename"]))
        try:
            return wheel_requires_dist(best["url"])
        except (zipfile.BadZipFile, OSError) as e:
            raise Unreadable(f"{best['filename']}: not a readable wheel ({e})") from None
    with tempfile.TemporaryDirectory() as tmp:
        report = os.path.join(tmp, "report.json")
        r = pip("install", "--dry-run", "--ignore-installed", "--no-deps", "--quiet", "--report", report, f"{package}=={version}")
        if r.returncode == 0 and os.path.exists(report):
            with open(report) as f:
                installs = json.load(f)["install"]
            return installs[0]["metadata"].get("requires_dist", []) if installs else []
        lines = [l.strip() for l in (r.stderr or r.stdout).splitlines() if l.strip()]
        # The build's own exception ("ModuleNotFoundError: No module named
        # 'torch'") says more than pip's closing note.
        last = next((l for l in lines if re.match(r"^(ERROR|\w+Error:)", l)), lines[-1] if lines else "no output")
        raise Unreadable(f"no wheel on the index, and pip could not build the sdist's metadata: {last}")


def pin(reqs, name_re, extra=None):
    """(name, operator, version) of the first requirement named by name_re
    (only those of `extra` when given, else only unconditional ones): its ==
    pin, else its >= floor (a specifier list such as "<10,>=9.8" gives the
    floor)."""
    for req in reqs:
        m = re.match(rf"^({name_re})(?![A-Za-z0-9_.-])\s*\(?([^;)]*)\)?\s*(?:;(.*))?$", req, re.I)
        if not m:
            continue
        marker = m.group(3) or ""
        if (extra is None) == bool(re.search(r"extra\s*==", marker)):
            continue
        if extra and not re.search(rf"extra\s*==\s*['\"]{re.escape(extra)}['\"]", marker):
            continue
        spec = m.group(2)
        for op in ("==", ">=", "~="):
            found = re.search(rf"{op}\s*([0-9][^,;\s)]*)", spec)
            if found:
                return m.group(1), op, found.group(1)
    return None


def major_minor(v):
    return ".".join(v.split(".")[:2])


def matrix_entries(framework):
    try:
        with open(FRAMEWORKS) as f:
            return [e for e in json.load(f)["frameworks"] if e["framework"] == framework]
    except (OSError, ValueError, KeyError) as e:
        sys.exit(f"pypi_pins: cannot read {FRAMEWORKS}: {e}")


def covering(framework, version, only=None):
    """The matrix's most specific entries for this release (an entry "2.14"
    covers 2.14.x; "0.4.31" beats "0.4"), as the matrix's own lookup orders
    them; `only` filters them first (the PyPI default build)."""
    found = [e for e in matrix_entries(framework)
             if (version == e["version"] or version.startswith(e["version"] + ".")) and (only is None or only(e))]
    if not found:
        return []
    most = max(len(e["version"].split(".")) for e in found)
    return [e for e in found if len(e["version"].split(".")) == most]


def verdict(entries, field, value):
    if not entries:
        return "  DIFF: matrix has no entry"
    known = sorted({e[field] for e in entries if e.get(field)})
    return "  same" if value in known else f"  DIFF: matrix {field} {known or 'absent'}"


def line(package, version, derived, check=""):
    print(f"{package:20} {version:12} {derived}{check}")


def read_torch(v, reqs):
    rt, dnn = pin(reqs, CUDA_RUNTIME), pin(reqs, CUDNN)
    if not rt:
        return "default wheel: no CUDA runtime pin (CUDA inside, or CPU)", ""
    cuda = major_minor(rt[2])
    found = f"default wheel: CUDA {cuda} ({rt[0].split('[')[0]}{rt[1]}{rt[2]})" + (f", cuDNN {dnn[2]}" if dnn else "")
    return found, verdict(covering("torch", v, lambda e: e.get("pypi_default")), "cuda", cuda)


def read_torch_pinned(package, v, reqs):
    """vLLM, xformers: the torch they pin, and the CUDA of that torch's default wheel."""
    t = pin(reqs, r"torch")
    if not t:
        return "no torch pin", ""
    if t[1] != "==":
        return f"torch{t[1]}{t[2]} (a floor, not a pin)", ""
    return f"torch=={t[2]}", verdict(covering(package, v), "torch", t[2])


def read_jax_plugin(package, v, reqs):
    pjrt = pin(reqs, r"jax-cuda\d+-pjrt")
    rt = pin(reqs, CUDA_RUNTIME, "with-cuda") or pin(reqs, CUDA_RUNTIME)
    dnn = pin(reqs, CUDNN, "with-cuda") or pin(reqs, CUDNN)
    parts = [f"pjrt{pjrt[1]}{pjrt[2]}" if pjrt else "no pjrt pin",
             f"CUDA runtime {rt[1]}{rt[2]}" if rt else "no CUDA runtime pin",
             f"cuDNN {dnn[1]}{dnn[2]}" if dnn else "no cuDNN pin"]
    # The matrix's cudnn is the build's; the pin is its floor.
    return ", ".join(parts), verdict(covering(package, v), "cudnn", major_minor(dnn[2])) if dnn else ""


def read_tensorflow(v, reqs):
    rt, dnn = pin(reqs, CUDA_RUNTIME, "and-cuda"), pin(reqs, CUDNN, "and-cuda")
    if not rt:
        return "no [and-cuda] CUDA runtime pin", ""
    found = f"[and-cuda]: CUDA runtime {rt[1]}{rt[2]}" + (f", cuDNN {dnn[1]}{dnn[2]}" if dnn else ", no cuDNN pin")
    entries = covering("tensorflow", v)
    check = verdict(entries, "cuda", major_minor(rt[2]))
    if dnn and check == "  same":
        check = verdict(entries, "cudnn", major_minor(dnn[2]))
    return found, check


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("packages", nargs="*", default=["vllm", "torch", "jax-cuda12-plugin", "jax-cuda13-plugin"])
    ap.add_argument("--newest", type=int, default=6, help="releases per package, newest first (default 6)")
    ap.add_argument("--since", help="only releases from this one on (then --newest is ignored)")
    a = ap.parse_args()
    status = 0
    for package in a.packages:
        try:
            releases = versions(package)
        except Unreadable as e:
            print(f"{package:20} {'':12} could not read: {e}")
            status = 1
            continue
        if a.since:
            since = parse_version(a.since)
            if not since:
                sys.exit(f"pypi_pins: --since {a.since}: not a version")
            releases = [v for v in releases if parse_version(v) >= since]
        else:
            releases = releases[: a.newest]
        if not releases:
            print(f"{package:20} {'':12} no release on the index")
            status = 1
        for v in releases:
            try:
                reqs = requires_dist(package, v)
                if package == "torch":
                    line(package, v, *read_torch(v, reqs))
                elif package in ("vllm", "xformers"):
                    line(package, v, *read_torch_pinned(package, v, reqs))
                elif package.startswith("jax-cuda"):
                    line(package, v, *read_jax_plugin(package, v, reqs))
                elif package == "tensorflow":
                    line(package, v, *read_tensorflow(v, reqs))
                else:
                    line(package, v, "; ".join(reqs) or "no Requires-Dist")
            except Unreadable as e:
                line(package, v, f"could not read: {e}")
                status = 1
    return status


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        sys.exit(130)
