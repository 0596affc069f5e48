#!/usr/bin/env bash
# Builds gpucheck and runs every test: the whole suite in the
# AddressSanitizer/UBSan build, then the optimised release binary (the one
# users build) through the end-to-end tests and the output formats'
# consumer checks, and its .deb installed, run and removed (as root). Both
# builds treat warnings as errors. Then every fuzz target for a short while (clang's libFuzzer; the
# inputs it ever crashed on replay in the suite itself). Installs missing
# build dependencies first (packaging/install-deps.sh).
#
# One instrumented build runs the suite once: building and running it twice
# (optimised and sanitized) doubled CI's time (docs/PERFORMANCE.md, "Build
# and test time"); the optimised binary is still built, warning-free, and
# run end to end.
set -euo pipefail
cd "$(dirname "$0")/.."

./packaging/install-deps.sh

jobs=$(nproc)
start=$SECONDS
echo "== asan: configure, build, every test"
cmake --preset asan >/dev/null
cmake --build --preset asan -j "$jobs"
# Every test but the format consumers' check, which runs gpucheck some 200
# times to feed xmlschema, promtool and the NFD checker: it judges what the
# output says, so it runs below against the release binary (15 s, against
# 96 s of the sanitized one); the formats' own tests stay in this run.
ctest --preset asan -j "$jobs" -E '^output_formats_pass_their_consumers_checks$'
echo "== asan: $((SECONDS - start)) s"

echo "== release: configure, build, the end-to-end tests against it"
cmake --preset release -DGPUCHECK_WERROR=ON >/dev/null
cmake --build --preset release -j "$jobs"
# The tests that run the gpucheck binary ([cli]), here on the release build.
GPUCHECK_TEST_BINARY="$PWD/build/release/gpucheck" ./build/asan/tests/gpucheck_tests "[cli]"
./build/release/gpucheck --version
tests/formats/check-formats.sh build/release/gpucheck build/release/formats-check
# The .deb users install: built, installed with dpkg, run, removed.
(cd build/release && cpack -G DEB >/dev/null)
./packaging/test-deb.sh build/release/packages/gpucheck_*_amd64.deb

echo "== fuzz: every reader of untrusted bytes, 10 s each (docs/robustness.md)"
fuzz_start=$SECONDS
cmake --preset fuzz >/dev/null
cmake --build --preset fuzz -j "$jobs"
./tests/fuzz/run-fuzz.sh 10
echo "== fuzz: $((SECONDS - fuzz_start)) s"
echo "== total: $((SECONDS - start)) s"
