#!/usr/bin/env bash
# Builds gpucheck and runs every test: the optimised build with the whole
# suite, then the AddressSanitizer/UBSan build with the same suite.
# Installs missing build dependencies first (packaging/install-deps.sh).
set -euo pipefail
cd "$(dirname "$0")/.."

./packaging/install-deps.sh

jobs=$(nproc)
for preset in ci asan; do
  echo "== $preset: configure, build, test"
  cmake --preset "$preset" >/dev/null
  cmake --build --preset "$preset" -j "$jobs"
  ctest --preset "$preset" -j "$jobs"
done
