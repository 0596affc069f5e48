#!/usr/bin/env python3
"""Table of gpucheck's kernel rates against PyTorch's and the datasheet."""
import json
import sys


def f(v, d=1):
    return "-" if v is None else f"{v:.{d}f}"


def checks_by_gpu(path):
    """{ordinal: {precision: check}} of a `gpucheck kernels --json` file, or {}."""
    try:
        return {g.get("ordinal"): {c["precision"]: c for c in g["checks"]} for g in json.load(open(path))["kernels"]["gpus"]}
    except Exception:
        return {}


def main(ours_path, torch_path, portable_path=None):
    ours = json.load(open(ours_path))["kernels"]
    portable = checks_by_gpu(portable_path) if portable_path else {}
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
        print("| precision | kernel | status | gpucheck TFLOP/s | PyTorch TFLOP/s | datasheet | gpucheck/datasheet "
              "| gpucheck/PyTorch | --portable kernel, status, TFLOP/s |")
        print("|---|---|---|---|---|---|---|---|---|")
        notes = []
        for c in g["checks"]:
            tr = t.get("tflops", {}).get(c["precision"])
            ratio_t = c["tflops"] / tr if c.get("tflops") and tr else None
            p = portable.get(g.get("ordinal"), {}).get(c["precision"])
            alt = "-" if not p or p.get("kernel") == c.get("kernel") else \
                f"{p.get('kernel')}, {p['status']}, {f(p.get('tflops'))}"
            print(f"| {c['precision']} | {c.get('kernel') or '-'} | {c['status']} | {f(c.get('tflops'))} | {f(tr)} "
                  f"| {f(c.get('datasheet_tflops'))} | {f(c.get('ratio'), 2)} | {f(ratio_t, 2)} | {alt} |")
            why = c.get("first_mismatch") or c.get("jit_error") or c.get("launch_error") or c.get("reason")
            if c["status"] not in ("passed", "not_expected") and why:
                notes.append(f"- {c['precision']}: {why}")
        if notes:
            print("\n" + "\n".join(notes))
        for b in g["bandwidth"]:
            tb = t.get("copy_gbs") if b["kind"] == "device_copy" else None
            print(f"\n{b['kind']}: {b['status']}, {f(b.get('gbs'))} GB/s; PyTorch {f(tb)} GB/s; "
                  f"expected {f(b.get('expected_gbs'))} ({b.get('expected_source')})")


if __name__ == "__main__":
    main(*sys.argv[1:4])
