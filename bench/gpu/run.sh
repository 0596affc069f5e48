#!/usr/bin/env bash
# Real-GPU bench of the kernel checks: builds gpucheck, runs `gpucheck kernels
# --json`, runs the same precisions through PyTorch's matmul on the same GPUs
# (torch_rates.py), and prints our rate, PyTorch's, the datasheet and the
# ratios, plus device-copy bandwidth against torch's device-to-device copy.
# Needs cmake, ninja (or make), a C++20 compiler and python3 with torch.
# Usage: bench/gpu/run.sh [OUTDIR]   (about 3-6 minutes on one H200, with the two 20 s sustained runs)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out=${1:-$root/build/bench-gpu-out}
build=$root/build/bench-gpu
mkdir -p "$out"
gen=Ninja; command -v ninja >/dev/null || gen="Unix Makefiles"
cmake -S "$root" -B "$build" -G "$gen" -DCMAKE_BUILD_TYPE=Release -DGPUCHECK_BUILD_TESTS=OFF -DGPUCHECK_WERROR=OFF >"$out/cmake.log"
cmake --build "$build" --target gpucheck -j"$(nproc)" >"$out/build.log"
nvidia-smi -L | tee "$out/nvidia-smi-L.txt" || true
set +e
# The default run twice: first with an empty driver JIT cache (what a fresh
# node pays), then warm; wall seconds of each, for the "under 3 s per GPU" goal.
export CUDA_CACHE_PATH="$out/jit-cache"
rm -rf "$CUDA_CACHE_PATH"
for run in cold warm; do
  start=$EPOCHREALTIME
  timeout 300 "$build/gpucheck" kernels --json >"$out/kernels.json" 2>"$out/kernels.stderr"
  rc=$?
  echo "gpucheck kernels ($run JIT cache): exit code $rc, $(awk "BEGIN { printf \"%.2f\", $EPOCHREALTIME - $start }") s" | tee -a "$out/kernels.rc"
done
timeout 300 "$build/gpucheck" kernels >"$out/kernels.txt" 2>&1
# The portable kernels on the same GPUs (on Hopper: mma.sync instead of wgmma).
timeout 300 "$build/gpucheck" kernels --portable --json >"$out/kernels-portable.json" 2>"$out/kernels-portable.stderr"
# Sustained mode: 20 s of the BF16 tensor-core kernel per GPU, with NVML's
# clocks, temperature, power and clock-event reasons every 0.5 s.
timeout 300 "$build/gpucheck" kernels --precision bf16 --duration 20 --json >"$out/sustained.json" 2>"$out/sustained.stderr"
timeout 300 "$build/gpucheck" kernels --precision bf16 --duration 20 >"$out/sustained.txt" 2>&1
set -e
cat "$out/kernels.txt"
grep -A4 "sustained" "$out/sustained.txt" || true
timeout 300 python3 "$here/torch_rates.py" >"$out/torch.json" 2>"$out/torch.stderr" || echo "torch_rates.py failed: see $out/torch.stderr"
python3 "$here/compare.py" "$out/kernels.json" "$out/torch.json" "$out/kernels-portable.json" | tee "$out/table.md"
cat "$out/kernels.rc"
