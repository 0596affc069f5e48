#!/usr/bin/env python3
"""Reads the architectures a released wheel really carries code for, and the
CUDA toolkit that compiled it.

Downloads one wheel from the package index (`pip download --no-deps`; a
release with no wheel for this Python is fetched as a CPython 3.10 Linux
x86-64 wheel) and reads every shared object in it that holds CUDA code:

  - the SASS architectures (sm_XX) and PTX each carries, one count per
    compilation unit: the arch_list and ptx of a matrix/frameworks.json
    entry, read from the build itself rather than from release notes.
    They are read twice: from the headers of the object's fat binaries
    (.nv_fatbin: each entry names its kind, ELF or PTX, and its
    architecture), and with `cuobjdump -xelf all` / `--list-ptx`. The two
    must agree; where cuobjdump fails (a CUDA 13 cuobjdump stops with
    "Invalid ELF" in some CUDA 12.1 objects) the headers' counts stand
    and the line says so.
  - the toolkit that compiled the cubins: ptxas's own line in each cubin's
    .note.nv.tkinfo ("Cuda compilation tools, release 12.8"), else the
    toolkit the ELF header records (cuobjdump -elf's "toolkit=128"): the
    entry's `cuda`, for a library whose Requires-Dist says nothing of it
    (vLLM pins torch, and its own CUDA may differ from that torch's
    default wheel's).

cuobjdump comes from PATH, the CUDA toolkit, or else NVIDIA's
nvidia-cuda-cuobjdump wheel, fetched into the same temporary directory.

An architecture is listed as the build's when its SASS is in at least a
quarter as many compilation units as the best-covered one's: a library
compiles some kernels for newer architectures only (vLLM 0.6.4: sm_70 in 20
units, sm_80 in 53, the rest Ampere-only kernels), while a few special
kernels (sm_103 in 59 of torch 2.15's 535, sm_52 in one) are not a target
the build supports; those are printed apart, as counts to judge by. PTX is
printed with its counts: an entry's `ptx` is the newest architecture whose
PTX is in at least half as many units (a newer GPU runs a kernel only by
its PTX: PTX in 16 of vLLM 0.9.0's 62 units leaves most of it without
code for an RTX 5090).

Usage: matrix/tools/wheel_archs.py PACKAGE==VERSION|FILE.whl [--lib SUBSTRING]
Example: matrix/tools/wheel_archs.py torch==2.15.0 --lib libtorch_cuda.so
"""
import argparse
import collections
import glob
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import zipfile

TIMEOUT_S = 1800  # a torch wheel is a gigabyte
# A release with no wheel for this Python: a Linux x86-64 wheel for an older
# CPython (old releases) or a newer one (JAX 0.12 is CPython 3.12 and up).
OTHER_PYTHONS = ("3.10", "3.12")
PLATFORMS = ["--platform", "manylinux1_x86_64", "--platform", "manylinux2014_x86_64",
             "--platform", "manylinux_2_17_x86_64", "--platform", "manylinux_2_27_x86_64",
             "--platform", "manylinux_2_28_x86_64"]


def fail(message):
    sys.exit(f"wheel_archs: {message}")


def run(*cmd, cwd=None):
    try:
        return subprocess.run(cmd, capture_output=True, text=True, timeout=TIMEOUT_S, cwd=cwd)
    except subprocess.TimeoutExpired:
        fail(f"{' '.join(cmd[:3])} took more than {TIMEOUT_S} s")
    except OSError as e:
        fail(f"cannot run {cmd[0]}: {e}")


def last_error(r):
    lines = [l.strip() for l in (r.stderr or r.stdout).splitlines() if l.strip()]
    return next((l for l in lines if l.startswith("ERROR")), lines[-1] if lines else f"exit status {r.returncode}")


UNREACHABLE = re.compile(r"NewConnectionError|ProxyError|Connection refused|Name or service not known|"
                         r"Temporary failure in name resolution|Network is unreachable|timed out")


def download(spec, into):
    r = run(sys.executable, "-m", "pip", "download", "--no-deps", "--quiet", "-d", into, spec)
    if r.returncode != 0:
        offline = next((l.strip() for l in r.stderr.splitlines() if UNREACHABLE.search(l)), None)
        if offline:
            fail(f"pip download {spec}: cannot reach the package index ({offline[:200]})")
    tried = [f"pip download {spec}: {last_error(r)}"] if r.returncode != 0 else []
    for python in OTHER_PYTHONS if tried else ():
        r = run(sys.executable, "-m", "pip", "download", "--no-deps", "--quiet", "--only-binary=:all:",
                "--python-version", python, *PLATFORMS, "-d", into, spec)
        if r.returncode == 0:
            break
        tried.append(f"as a CPython {python} wheel: {last_error(r)}")
    else:
        if tried:
            fail("; ".join(tried))
    wheels = glob.glob(os.path.join(into, "*.whl"))
    if not wheels:
        fail(f"pip download {spec} gave no wheel (an sdist only?)")
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
        fail("no cuobjdump in PATH, in /usr/local/cuda/bin, or in the nvidia-cuda-cuobjdump wheel")
    os.chmod(found[0], 0o755)
    return found[0]


FATBIN_MAGIC = 0xBA55ED50  # fatbinary_section.h's FATBIN_MAGIC
ENTRY_ELF, ENTRY_PTX = 2, 1
COMPRESSED = 0x2000  # an entry flag: the payload is compressed


def elf_sections(data):
    """(name, offset, size) of a 64-bit little-endian ELF's sections."""
    if data[:4] != b"\x7fELF" or data[4] != 2:
        return
    (shoff,) = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    if not shoff or shstrndx >= shnum:
        return
    heads = [struct.unpack_from("<IIQQQQ", data, shoff + i * shentsize) for i in range(shnum)]
    names = heads[shstrndx][4]
    for h in heads:
        yield data[names + h[0]:data.index(b"\0", names + h[0])].decode("ascii", "replace"), h[4], h[5]


def fatbin_entries(data):
    """(kind, sm, payload) of every entry of the object's fat binaries: the
    fatbin header (magic, version, header size, size) and each entry's
    (kind, version, header size, padded payload size; the architecture at
    byte 28, the flags at byte 40), as nvcc writes them; the payload only
    when not compressed."""
    for name, off, size in elf_sections(data):
        if name != ".nv_fatbin":
            continue
        pos, end = off, off + size
        while pos + 16 <= end:
            magic, _, head, body = struct.unpack_from("<IHHQ", data, pos)
            if magic != FATBIN_MAGIC:
                pos += 8  # fat binaries are 8-aligned; padding between them
                continue
            e, stop = pos + head, min(pos + head + body, end)
            while e + 48 <= stop:
                kind, _, entry_head, padded = struct.unpack_from("<HHIQ", data, e)
                (sm,) = struct.unpack_from("<I", data, e + 28)
                (flags,) = struct.unpack_from("<Q", data, e + 40)
                if entry_head == 0:
                    break
                payload = b"" if flags & COMPRESSED else data[e + entry_head:e + entry_head + padded]
                yield kind, f"sm_{sm}", payload
                e += entry_head + padded
            pos = pos + head + body


def toolkit_of_bytes(data):
    m = re.search(rb"Cuda compilation tools, release (\d+\.\d+)", data)
    if m:
        return m.group(1).decode()
    if len(data) >= 24 and data[:4] == b"\x7fELF" and data[8] == 7:
        (e_version,) = struct.unpack_from("<I", data, 20)
        if e_version >= 100:
            return f"{e_version // 10}.{e_version % 10}"
    return "?"


def toolkit_of(cubin):
    """The CUDA release that compiled a cubin: ptxas's line in its
    .note.nv.tkinfo, else the ELF header's e_version (ABI 7 cubins record
    the toolkit there: 128 for 12.8)."""
    with open(cubin, "rb") as f:
        return toolkit_of_bytes(f.read())


def from_headers(path):
    """SASS and PTX counts from the fat binaries' headers, and the toolkit
    of each uncompressed cubin."""
    with open(path, "rb") as f:
        data = f.read()
    archs, ptxs, toolkits = collections.Counter(), collections.Counter(), collections.Counter()
    for kind, sm, payload in fatbin_entries(data):
        if kind == ENTRY_ELF:
            archs[sm] += 1
            if payload:
                toolkits[toolkit_of_bytes(payload)] += 1
        elif kind == ENTRY_PTX:
            ptxs[sm] += 1
    return archs, ptxs, toolkits


def cubins(tool, path, into):
    """sm_XX -> number of cubins, and toolkit -> number of cubins, as
    cuobjdump extracts them; the error when it fails."""
    os.makedirs(into)
    r = run(tool, "-xelf", "all", os.path.abspath(path), cwd=into)
    found = glob.glob(os.path.join(into, "*.cubin"))
    if r.returncode != 0 and "does not contain" not in (r.stderr + r.stdout):
        shutil.rmtree(into)
        return None, None, (r.stderr or r.stdout).strip().splitlines()[-1:] or [f"exit status {r.returncode}"]
    archs, toolkits = collections.Counter(), collections.Counter()
    for c in found:
        sm = re.search(r"\.(sm_\d+[a-z]?)\.cubin$", c)
        if sm:
            archs[sm.group(1)] += 1
        toolkits[toolkit_of(c)] += 1
    shutil.rmtree(into)
    return archs, toolkits, None


def ptx(tool, path):
    out = run(tool, "--list-ptx", path)
    return collections.Counter(re.findall(r"\.(sm_\d+[a-z]?)\.", out.stdout)), out.returncode == 0


def by_number(counts):
    """sm_90a and sm_90 as one: the fatbin headers record the number only."""
    out = collections.Counter()
    for sm, n in counts.items():
        out[re.match(r"sm_\d+", sm).group(0)] += n
    return out


def cc(sm):
    digits = re.match(r"sm_(\d+)", sm).group(1)
    return f"{digits[:-1]}.{digits[-1]}"


def sm_order(s):
    return int(re.sub(r"\D", "", s))


def report(elf, found_ptx, toolkits):
    top = max(elf.values(), default=0)
    main_archs = sorted((s for s, n in elf.items() if 4 * n >= top), key=sm_order)
    rest = sorted((s for s in elf if s not in main_archs), key=sm_order)
    if main_archs:
        ccs = sorted({cc(s) for s in main_archs}, key=lambda c: [int(x) for x in c.split(".")])
        print(f"    arch_list: {ccs}  (SASS units: {', '.join(f'{s} {elf[s]}' for s in main_archs)})")
    else:
        print("    arch_list: []")
    if rest:
        print(f"    fewer units: {', '.join(f'{s} ({elf[s]})' for s in rest)}")
    wide = [s for s, n in found_ptx.items() if top and 2 * n >= top]
    print(f"    ptx: {', '.join(f'{s} ({n})' for s, n in sorted(found_ptx.items(), key=lambda i: sm_order(i[0]))) or 'none'}"
          f"  -> entry ptx: {cc(max(wide, key=sm_order)) if wide else 'none'}")
    known = {t: n for t, n in toolkits.items() if t != "?"}
    if known:
        print(f"    compiled by CUDA: {', '.join(f'{t} ({n} cubins)' for t, n in sorted(known.items(), key=lambda i: -i[1]))}")
    else:
        print("    compiled by CUDA: not recorded in the cubins")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("spec", help="PACKAGE==VERSION, or a wheel file already downloaded")
    ap.add_argument("--lib", default="", help="only shared objects whose path contains this")
    a = ap.parse_args()
    local = a.spec.endswith(".whl")
    if local and not os.path.isfile(a.spec):
        fail(f"{a.spec}: no such file")
    if not local and "==" not in a.spec:
        fail(f"{a.spec}: expected PACKAGE==VERSION or a .whl file")
    with tempfile.TemporaryDirectory() as tmp:
        wheel = a.spec if local else download(a.spec, os.path.join(tmp, "wheel"))
        tool = cuobjdump(tmp)
        print(f"{os.path.basename(wheel)} (cuobjdump: {run(tool, '--version').stdout.strip().splitlines()[-1]})")
        try:
            z = zipfile.ZipFile(wheel)
        except zipfile.BadZipFile as e:
            fail(f"{wheel}: not a wheel ({e})")
        with z:
            libs = [n for n in z.namelist() if re.search(r"\.so(\.\d+)*$", n) and a.lib in n]
            if not libs:
                fail(f"no shared object in {os.path.basename(wheel)} whose path contains \"{a.lib}\"")
            for name in libs:
                path = z.extract(name, os.path.join(tmp, "x"))
                elf, found_ptx, toolkits = from_headers(path)
                tool_elf, tool_toolkits, tool_error = cubins(tool, path, os.path.join(tmp, "cubins"))
                tool_ptx, ptx_ok = ptx(tool, path)
                os.remove(path)
                if not elf and not found_ptx and not tool_elf:
                    continue
                print(f"  {name}")
                if tool_error or not ptx_ok:
                    print(f"    cuobjdump failed ({' '.join(tool_error or ['--list-ptx'])}): counts from the fatbin headers")
                    report(elf, found_ptx, toolkits)
                    continue
                # The headers name sm_90a as sm_90: compare without the suffix.
                if by_number(tool_elf) != elf or by_number(tool_ptx) != found_ptx:
                    print(f"    DIFFERENT: the fatbin headers count SASS {dict(elf)}, PTX {dict(found_ptx)}; "
                          "cuobjdump's are below")
                else:
                    print("    cuobjdump and the fatbin headers agree")
                report(tool_elf, tool_ptx, tool_toolkits)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        sys.exit(130)
