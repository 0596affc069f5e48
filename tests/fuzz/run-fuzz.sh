#!/usr/bin/env bash
# Runs every fuzz target (tests/fuzz/fuzz_targets.cpp) for SECONDS each,
# seeded from the inputs it names plus its regressions, and prints the
# executions each made. Exit 1 if any input crashed, hung or tripped a
# sanitizer: the input is kept as tests/fuzz/regressions/<target>/crash-*
# (commit it with the fix) and the reason printed. Beyond crashes, each
# target checks that the JSON it writes parses, fuzz_main.cpp that an input
# takes time in proportion to its size, and libFuzzer that memory stays
# under -rss_limit_mb and no allocation passes -malloc_limit_mb;
# edge-numbers.dict puts the numbers that broke readers (±2^31, 2^64, 1e19,
# NaN) into every mutated document.
# Usage: tests/fuzz/run-fuzz.sh [SECONDS=20] [BINARY=build/fuzz/tests/fuzz/gpucheck_fuzz]
set -euo pipefail

seconds=${1:-20}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
bin=${2:-$here/build/fuzz/tests/fuzz/gpucheck_fuzz}
[[ -x $bin ]] || { echo "run-fuzz: $bin is not built (cmake --preset fuzz && cmake --build --preset fuzz)" >&2; exit 2; }

work=$(mktemp -d /tmp/gpucheck-fuzz-XXXXXX)
trap 'rm -rf "$work"' EXIT
targets=$( (GPUCHECK_FUZZ_TARGET=none "$bin" -runs=0 2>&1 || true) | sed -n "s/^GPUCHECK_FUZZ_TARGET must name one of: //p")
[[ -n $targets ]] || { echo "run-fuzz: $bin lists no targets" >&2; exit 2; }
seeds_of() {  # the target's seed paths, as fuzz_targets.cpp names them
  grep -o "{\"$1\", [a-z_]*, \"[^\"]*\"}" "$here/tests/fuzz/fuzz_targets.cpp" | sed 's/.*, "\(.*\)"}/\1/' | tr ';' '\n'
}

failed=0 total=0
printf '%-12s %12s %8s %s\n' target executions seeds result
for t in $targets; do
  corpus=$work/$t
  mkdir -p "$corpus" "$here/tests/fuzz/regressions/$t"
  while read -r s; do
    [[ -z $s ]] && continue
    [[ $s = /* ]] || s=$here/$s
    [[ -e $s ]] || continue
    # Regular files under 1 MiB, named by content so duplicates merge.
    find "$s" -type f -size -1024k -print0 2>/dev/null | while IFS= read -r -d '' f; do
      cp "$f" "$corpus/$(sha1sum "$f" | cut -c1-16)"
    done
  done < <(seeds_of "$t")
  cp "$here/tests/fuzz/regressions/$t"/* "$corpus/" 2>/dev/null || true
  nseeds=$(find "$corpus" -type f | wc -l)
  log=$work/$t.log
  set +e
  GPUCHECK_FUZZ_TARGET=$t ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    "$bin" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=512 -max_len=262144 -print_final_stats=1 \
    -dict="$here/tests/fuzz/edge-numbers.dict" \
    -artifact_prefix="$here/tests/fuzz/regressions/$t/crash-" "$corpus" > "$log" 2>&1
  rc=$?
  set -e
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  runs=${runs:-0}
  total=$((total + runs))
  if [[ $rc -eq 0 ]]; then
    printf '%-12s %12s %8s %s\n' "$t" "$runs" "$nseeds" "no crash"
  else
    failed=1
    printf '%-12s %12s %8s %s\n' "$t" "$runs" "$nseeds" "FAILED (exit $rc)"
    grep -E "ERROR|SUMMARY|Test unit written|runtime error" "$log" | head -8 | sed 's/^/    /'
  fi
done
printf '%-12s %12s\n' all "$total"
exit $failed
