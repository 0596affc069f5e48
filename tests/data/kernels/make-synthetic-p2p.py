#!/usr/bin/env python3
"""Writes the two synthetic peer-copy reports of tests/data/kernels/README.md:
the HGX fixture's golden `probe --json` with a `kernels` section in the
schema docs/kernels.md gives, as `gpucheck kernels --precision p2p` on that
board would write it. The rates are made up (about 82% of NVLink 4's
450 GB/s one way, shaped like nvbandwidth's device-to-device copies on an
H100 board); no GPU has run the peer copies for the tests yet.

usage: make-synthetic-p2p.py   (from the repository root; rewrites both files)
"""
import json
from collections import OrderedDict

GOLDEN = "tests/fixtures/golden/hgx-h100-topology.json"
SOURCE = ("NVLink through NVSwitches: 18 of 18 links active here, 18 of 18 there, that share of "
          "the datasheet's 900 GB/s both ways (h100-sxm5-80gb)")
BYTES = 64 << 20
WORDS = 2 * (BYTES // 4)


def copy(src, dst, buses, **over):
    c = OrderedDict([
        ("src_ordinal", src), ("dst_ordinal", dst), ("src_bus", buses[src]), ("dst_bus", buses[dst]),
        ("status", "passed"), ("reason", None), ("can_access", True), ("bytes", BYTES),
        ("words_checked", WORDS), ("words_wrong", 0), ("correct", True), ("gbs", 368.2),
        ("link", "nvswitch"), ("expected_gbs", 450.0), ("expected_source", SOURCE), ("ratio", 368.2 / 450.0)])
    c.update(over)
    return c


def report(broken):
    probe = json.load(open(GOLDEN), object_pairs_hook=OrderedDict)
    buses = [p["address"] for p in probe["pci"] if p["kind"] == "gpu"]
    gpus = [OrderedDict([
        ("ordinal", i), ("vendor", "nvidia"), ("name", "NVIDIA H100 80GB HBM3"), ("uuid", None),
        ("pci_bus_id", bus), ("compute_capability", "9.0"), ("sm_count", 132), ("mig", False),
        ("model", "h100-sxm5-80gb"), ("architecture", "Hopper"), ("status", "ran"), ("reason", None),
        ("child_restarts", 0), ("checks", []), ("bandwidth", []), ("sustained", None)]) for i, bus in enumerate(buses)]
    copies = []
    for s in range(len(buses)):
        for d in range(len(buses)):
            if s == d:
                continue
            c = copy(s, d, buses)
            if broken and (s, d) == (0, 1):
                c.update(status="failed", correct=False, words_wrong=3, reason=(
                    "3 of %d words did not arrive as written, every call succeeding (first at byte 4096)" % WORDS))
            if broken and (s, d) == (2, 3):
                c.update(status="timed_out", reason="no answer within 10000 ms", bytes=None, words_checked=None,
                         words_wrong=None, correct=None, gbs=None, ratio=None)
            if broken and (s, d) == (4, 5):
                c.update(gbs=121.5, ratio=121.5 / 450.0)
            if broken and (s, d) == (6, 7):
                c.update(status="skipped", can_access=False, reason=(
                    "the driver grants no peer access from this GPU to that one (cuDeviceCanAccessPeer)"),
                         bytes=None, words_checked=None, words_wrong=None, correct=None, gbs=None, ratio=None)
            copies.append(c)
    probe["kernels"] = OrderedDict([
        ("library", "/usr/lib/x86_64-linux-gnu/libcuda.so.565.57.01"), ("driver_version", "12.7"),
        ("cuda_visible_devices", None), ("error", None), ("matrix_version", "2026.12.4.7"),
        ("gpus", gpus), ("peer_copies", copies)])
    # The kernels section before the notes, as `probe --json` orders it.
    notes = probe.pop("notes", None)
    if notes is not None:
        probe["notes"] = notes
    return probe


for name, broken in (("synthetic-hgx-h100-p2p-broken.json", True), ("synthetic-hgx-h100-p2p-healthy.json", False)):
    with open("tests/data/kernels/" + name, "w") as f:
        json.dump(report(broken), f, indent=2)
        f.write("\n")
