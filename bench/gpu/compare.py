#!/usr/bin/env python3
"""Table of gpucheck's kernel rates against PyTorch's and the datasheet."""
import json
import sys


def f(v, d=1):
    return "-" if v is None else f"{v:.{d}f}"


def main(ours_path, torch_path):
    ours = json.load(open(ours_path))["kernels"]
    try:
        theirs = {g["ordinal"]: g for g in json.load(open(torch_path))["gpus"]}
    except Exception as e:
        print(f"(no PyTorch rates: {e})")
        theirs = {}
    if ours.get("error"):
        print("gpucheck kernels could not run:", ours["error"])
    for g in ours["gpus"]:
        t = theirs.get(g.get("ordinal"), {})
        print(f"\n## GPU {g.get('ordinal')}: {g.get('name')} (cc {g.get('compute_capability')})\n")
        print("| precision | status | gpucheck TFLOP/s | PyTorch TFLOP/s | datasheet | gpucheck/datasheet | gpucheck/PyTorch |")
        print("|---|---|---|---|---|---|---|")
        for c in g["checks"]:
            tr = t.get("tflops", {}).get(c["precision"])
            ratio_t = c["tflops"] / tr if c.get("tflops") and tr else None
            print(f"| {c['precision']} | {c['status']} | {f(c.get('tflops'))} | {f(tr)} | {f(c.get('datasheet_tflops'))} "
                  f"| {f(c.get('ratio'), 2)} | {f(ratio_t, 2)} |")
        for b in g["bandwidth"]:
            tb = t.get("copy_gbs") if b["kind"] == "device_copy" else None
            print(f"\n{b['kind']}: {b['status']}, {f(b.get('gbs'))} GB/s; PyTorch {f(tb)} GB/s; "
                  f"expected {f(b.get('expected_gbs'))} ({b.get('expected_source')})")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
