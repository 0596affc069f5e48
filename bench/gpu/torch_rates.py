#!/usr/bin/env python3
"""PyTorch's matmul rate per precision on every visible GPU, and its
device-to-device copy bandwidth, as JSON on stdout (for bench/gpu/run.sh)."""
import json
import sys

import torch


def timed(fn, reps):
    fn()
    torch.cuda.synchronize()
    a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    a.record()
    for _ in range(reps):
        fn()
    b.record()
    b.synchronize()
    return a.elapsed_time(b) / 1000 / reps


def matmul_rate(precision, n, dev):
    torch.backends.cuda.matmul.allow_tf32 = precision == "tf32"
    if precision in ("fp64", "fp32", "tf32", "fp16", "bf16"):
        dt = {"fp64": torch.float64, "fp32": torch.float32, "tf32": torch.float32,
              "fp16": torch.float16, "bf16": torch.bfloat16}[precision]
        x, y = torch.randn(n, n, device=dev, dtype=dt), torch.randn(n, n, device=dev, dtype=dt)
        fn = lambda: torch.matmul(x, y)
    elif precision == "int8":
        x = torch.randint(-128, 127, (n, n), device=dev, dtype=torch.int8)
        y = torch.randint(-128, 127, (n, n), device=dev, dtype=torch.int8)
        fn = lambda: torch._int_mm(x, y)
    elif precision in ("fp8_e4m3", "fp8_e5m2"):
        dt = torch.float8_e4m3fn if precision == "fp8_e4m3" else torch.float8_e5m2
        x = torch.randn(n, n, device=dev).to(dt)
        y = torch.randn(n, n, device=dev).to(dt).t()  # _scaled_mm wants B column-major
        one = torch.tensor(1.0, device=dev)
        if precision == "fp8_e5m2":
            x = torch.randn(n, n, device=dev).to(torch.float8_e4m3fn)  # e5m2 x e5m2 is not supported by cuBLASLt
        fn = lambda: torch._scaled_mm(x, y, scale_a=one, scale_b=one, out_dtype=torch.bfloat16)
    else:
        return None
    s = timed(fn, 5 if precision == "fp64" else 20)
    return 2 * n ** 3 / s / 1e12


def main():
    out = {"torch": torch.__version__, "cuda": torch.version.cuda, "gpus": []}
    for i in range(torch.cuda.device_count()):
        dev = torch.device("cuda", i)
        g = {"ordinal": i, "name": torch.cuda.get_device_name(i), "tflops": {}, "errors": {}}
        for p in ("fp64", "fp32", "tf32", "fp16", "bf16", "int8", "fp8_e4m3", "fp8_e5m2"):
            try:
                g["tflops"][p] = matmul_rate(p, 4096 if p == "fp64" else 8192, dev)
            except Exception as e:  # a precision the GPU or this torch lacks
                g["errors"][p] = f"{type(e).__name__}: {e}"[:300]
        src = torch.empty(256 << 20, dtype=torch.uint8, device=dev)
        dst = torch.empty_like(src)
        s = timed(lambda: dst.copy_(src), 20)
        g["copy_gbs"] = 2 * src.numel() / s / 1e9  # read + written, as gpucheck counts
        out["gpus"].append(g)
    json.dump(out, sys.stdout, indent=2)


if __name__ == "__main__":
    main()
