#!/usr/bin/env python3
"""Derives matrix/gpu_ids.json: every NVIDIA GPU the current drivers support,
by PCI device id, with its chip and compute capability.

Inputs, each a primary table:

  - NVIDIA's open kernel modules' README, table "Compatible GPUs" (product
    name, PCI device id, subsystem ids): the Turing and later GPUs the
    driver of that tag supports.
    https://github.com/NVIDIA/open-gpu-kernel-modules/blob/<tag>/README.md
  - The PCI ID Repository's pci.ids, which names each device id's chip
    ("2c02  GB203 [GeForce RTX 5080]"). Maxwell, Pascal and Volta GPUs,
    which the open modules do not drive and R580 is the last branch to
    support, come from it alone: its devices of those chips with a product
    name in brackets.
    https://github.com/pciutils/pciids/blob/<commit>/pci.ids
  - CHIPS below: each chip family's compute capability, from NVIDIA's CUDA
    GPUs pages (every product of one chip family has that family's compute
    capability).

Every chip's compute capability is checked against matrix/gpus.json: a
curated model whose PCI id is in the table must have the same compute
capability, or the tool stops. A chip with no entry in CHIPS (GB102: B100,
DRIVE P2021; no NVIDIA page gives its compute capability) is written without
one and listed at the end: gpucheck then knows the name, not the compute
capability, and says so.

Usage: matrix/tools/gpu_ids.py [--readme FILE --readme-ref TAG]
                               [--pci-ids FILE --pci-ids-ref COMMIT]
                               [--checked YYYY-MM-DD] [--write]
Without files, both are downloaded (the README of the newest tag of the
open modules is asked of the GitHub API). Without --write it prints what
would change against matrix/gpu_ids.json and writes nothing.
"""
import argparse
import datetime
import json
import os
import re
import sys
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
MATRIX = os.path.join(HERE, "..")
OUT = os.path.join(MATRIX, "gpu_ids.json")
CUDA_GPUS = "https://developer.nvidia.com/cuda-gpus"
LEGACY_GPUS = "https://developer.nvidia.com/cuda-legacy-gpus"

# Chip name prefix (as pci.ids spells it, longest match wins) ->
# (architecture, compute capability, page that gives it).
CHIPS = {
    "GM10": ("Maxwell", "5.0", LEGACY_GPUS),
    "GM20": ("Maxwell", "5.2", LEGACY_GPUS),
    "GP100": ("Pascal", "6.0", LEGACY_GPUS),
    "GP10": ("Pascal", "6.1", LEGACY_GPUS),
    "GV100": ("Volta", "7.0", CUDA_GPUS),
    "TU10": ("Turing", "7.5", CUDA_GPUS),
    "TU11": ("Turing", "7.5", CUDA_GPUS),
    "GA100": ("Ampere", "8.0", CUDA_GPUS),
    "GA10": ("Ampere", "8.6", CUDA_GPUS),
    "AD10": ("Ada Lovelace", "8.9", CUDA_GPUS),
    "GH100": ("Hopper", "9.0", CUDA_GPUS),
    "GB100": ("Blackwell", "10.0", CUDA_GPUS),
    "GB110": ("Blackwell Ultra", "10.3", CUDA_GPUS),
    "GB20B": ("Blackwell", "12.1", CUDA_GPUS),
    "GB20": ("Blackwell", "12.0", CUDA_GPUS),
}
# Chips the tool knows to be without a compute capability on any NVIDIA
# page; any other unknown chip stops the tool, so a new family is noticed.
UNKNOWN_CHIPS = {"GB102"}
# Driven by R580 and earlier only: taken from pci.ids, not the README.
LEGACY_PREFIXES = ("GM10", "GM20", "GP10", "GV100")


def get(url, timeout=60):
    req = urllib.request.Request(url, headers={"User-Agent": "gpucheck-matrix-tools"})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return r.read().decode("utf-8", "replace")
    except Exception as e:  # the network, a moved page: one line, not a traceback
        sys.exit("gpu_ids.py: could not read %s: %s (give the file with --readme/--pci-ids and its ref)" % (url, e))


def chip_family(chip):
    best = None
    for prefix in CHIPS:
        if chip.startswith(prefix) and (best is None or len(prefix) > len(best)):
            best = prefix
    return best


def base_chip(chip):
    # "TU104GLM" -> "TU104", "GB20B" stays: the letters after the digits
    # name a board variant (GL: professional, M: mobile, BM: mobile B).
    m = re.match(r"^(G[A-Z]\d{2}[0-9B]|[A-Z]{2}\d{3})", chip)
    return m.group(1) if m else chip


def read_readme(text):
    """(name, device id) of the table's rows; subsystem rows name the same chip."""
    rows = []
    for line in text.splitlines():
        m = re.match(r"^\|\s*(.+?)\s*\|\s*([0-9A-F]{4})((?:\s+[0-9A-F]{4}){0,2})\s*\|\s*$", line)
        if m and m.group(1) != "Product Name":
            rows.append((m.group(1), m.group(2).lower()))
    if len(rows) < 100:
        sys.exit("gpu_ids.py: the README's GPU table has %d rows; expected hundreds: its format changed" % len(rows))
    return rows


def read_pci_ids(text):
    """NVIDIA's device ids -> (chip, bracketed product names or [])."""
    out = {}
    vendor = False
    for line in text.splitlines():
        if line.startswith("10de "):
            vendor = True
            continue
        if vendor and re.match(r"^[0-9a-f]{4}\s", line):
            break
        m = re.match(r"^\t([0-9a-f]{4})\s+(\S+)(?:\s+\[(.*)\])?", line) if vendor else None
        if m:
            names = [n.strip() for n in (m.group(3) or "").split("/") if n.strip()]
            out[m.group(1)] = (m.group(2), names)
    if len(out) < 500:
        sys.exit("gpu_ids.py: pci.ids lists %d NVIDIA devices; expected thousands" % len(out))
    return out


def product_name(name):
    # A pci.ids alternative that is a whole product name, not a fragment
    # ("GeForce GTX 1050 Ti / 1050 Ti Mobile" gives one name, not two).
    return re.match(r"^(GeForce|Quadro|Tesla|TITAN|NVIDIA|Jetson)\b", name) is not None


def derive(readme, pci, readme_url, pci_url, checked):
    rows = {}
    for name, dev in readme:
        if dev not in pci:
            sys.exit("gpu_ids.py: the README's %s (%s) is not in pci.ids" % (dev, name))
        rows.setdefault(dev, {"chip": pci[dev][0], "names": [], "sources": [readme_url, pci_url]})
        if name not in rows[dev]["names"]:
            rows[dev]["names"].append(name)
    for dev, (chip, names) in pci.items():
        if dev in rows or not chip.startswith(LEGACY_PREFIXES):
            continue
        names = [n for n in names if product_name(n)]
        if names:
            rows[dev] = {"chip": chip, "names": names, "sources": [pci_url]}
    out, unknown = [], []
    for dev in sorted(rows):
        r = rows[dev]
        family = chip_family(r["chip"])
        entry = {"pci_id": "10de:" + dev, "chip": base_chip(r["chip"]), "names": r["names"]}
        if family:
            arch, cc, page = CHIPS[family]
            entry["architecture"] = arch
            entry["compute_capability"] = cc
            r["sources"].append(page)
        elif base_chip(r["chip"]) in UNKNOWN_CHIPS:
            unknown.append(entry)
        else:
            sys.exit("gpu_ids.py: chip %s of %s (%s) is in no family of CHIPS; add it with its source"
                     % (r["chip"], dev, ", ".join(r["names"])))
        entry["checked"] = checked
        entry["sources"] = r["sources"]
        out.append(entry)
    return out, unknown


def check_against_models(entries):
    with open(os.path.join(MATRIX, "gpus.json")) as f:
        models = json.load(f)["gpus"]
    by_id = {e["pci_id"]: e for e in entries}
    wrong = []
    for m in models:
        for pid in m.get("pci_ids", []):
            e = by_id.get(pid)
            if e and "compute_capability" in e and m.get("compute_capability") != e["compute_capability"]:
                wrong.append("%s (%s): gpus.json %s, derived %s" % (pid, m["id"], m.get("compute_capability"),
                                                                   e["compute_capability"]))
    if wrong:
        sys.exit("gpu_ids.py: compute capabilities disagree with matrix/gpus.json:\n  " + "\n  ".join(wrong))


SOURCE_OPTIONS = ("readme", "readme_ref", "pci_ids", "pci_ids_ref", "checked")


def add_source_options(ap):
    """The tables' files and refs, and the day: refresh.py passes them on."""
    ap.add_argument("--readme")
    ap.add_argument("--readme-ref")
    ap.add_argument("--pci-ids")
    ap.add_argument("--pci-ids-ref")
    ap.add_argument("--checked", default=datetime.date.today().isoformat())


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_source_options(ap)
    ap.add_argument("--write", action="store_true")
    a = ap.parse_args()
    if bool(a.readme) != bool(a.readme_ref) or bool(a.pci_ids) != bool(a.pci_ids_ref):
        ap.error("a file needs its ref (--readme with --readme-ref, --pci-ids with --pci-ids-ref)")
    ref = a.readme_ref or json.loads(get("https://api.github.com/repos/NVIDIA/open-gpu-kernel-modules/tags"))[0]["name"]
    readme_url = "https://github.com/NVIDIA/open-gpu-kernel-modules/blob/%s/README.md" % ref
    readme = open(a.readme).read() if a.readme else get(
        "https://raw.githubusercontent.com/NVIDIA/open-gpu-kernel-modules/%s/README.md" % ref)
    pref = a.pci_ids_ref or json.loads(get("https://api.github.com/repos/pciutils/pciids/commits/master"))["sha"]
    pci_url = "https://github.com/pciutils/pciids/blob/%s/pci.ids" % pref
    pci_text = open(a.pci_ids, encoding="utf-8", errors="replace").read() if a.pci_ids else get(
        "https://raw.githubusercontent.com/pciutils/pciids/%s/pci.ids" % pref)

    entries, unknown = derive(read_readme(readme), read_pci_ids(pci_text), readme_url, pci_url, a.checked)
    check_against_models(entries)

    old = {}
    if os.path.exists(OUT):
        with open(OUT) as f:
            old = {e["pci_id"]: e for e in json.load(f)["gpu_ids"]}
    new = {e["pci_id"]: e for e in entries}
    strip = lambda e: {k: v for k, v in e.items() if k not in ("checked", "sources")}
    for pid in sorted(set(old) | set(new)):
        if pid not in old:
            print("new      %s %-8s %-5s %s" % (pid, new[pid]["chip"], new[pid].get("compute_capability", "?"),
                                               "; ".join(new[pid]["names"])))
        elif pid not in new:
            print("gone     %s %s" % (pid, "; ".join(old[pid]["names"])))
        elif strip(old[pid]) != strip(new[pid]):
            print("changed  %s %s -> %s" % (pid, json.dumps(strip(old[pid])), json.dumps(strip(new[pid]))))
    per_cc = {}
    for e in entries:
        per_cc[e.get("compute_capability", "unknown")] = per_cc.get(e.get("compute_capability", "unknown"), 0) + 1
    print("%d PCI ids from %s and %s; by compute capability: %s" % (
        len(entries), readme_url, pci_url, ", ".join("%s: %d" % kv for kv in sorted(per_cc.items()))))
    for e in unknown:
        print("no compute capability (chip %s): %s %s" % (e["chip"], e["pci_id"], "; ".join(e["names"])))
    if a.write:
        # One id a line: a refresh's diff is the ids that changed.
        lines = ",\n".join("  " + json.dumps(e, ensure_ascii=False) for e in entries)
        tmp = OUT + ".tmp"
        with open(tmp, "w") as f:
            f.write('{\n "schema": "gpucheck.matrix/1",\n "gpu_ids": [\n' + lines + "\n ]\n}\n")
        os.replace(tmp, OUT)
        print("wrote", os.path.relpath(OUT))


if __name__ == "__main__":
    main()
