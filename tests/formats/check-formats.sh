#!/usr/bin/env bash
# Every machine format gpucheck writes, handed to its consumer's own check
# (tests/formats/README.md): JUnit XML to the xUnit schema (Python's
# xmlschema), Prometheus text to `promtool check metrics`, NFD feature
# files to NFD's label rules. Each checker is first shown a broken input
# and must refuse it, so a checker that accepts anything fails here.
# Usage: check-formats.sh GPUCHECK_BINARY WORK_DIR
set -euo pipefail

bin=$1
work=$2
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
cd "$repo"

# xmlschema from the package index, in a virtual environment of our own
# (pinned: the version this check was written against).
venv=$work/formats-venv
if ! "$venv/bin/python" -c 'import xmlschema' 2>/dev/null; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check 'xmlschema==4.3.2'
fi
command -v promtool >/dev/null || { echo "promtool not found: install Debian's prometheus (packaging/install-deps.sh)" >&2; exit 1; }

out=$work/formats-out
rm -rf "$out"
mkdir -p "$out"

# The checkers refuse what is broken.
printf '<testsuites><testsuite name="x"><testcase name="a"/></testsuite></testsuites>\n' > "$out/broken.xml"
if "$venv/bin/python" "$here/validate-junit.py" "$out/broken.xml" 2>/dev/null; then echo "the JUnit check accepted a suite without tests=" >&2; exit 1; fi
printf 'gpucheck_x{a="\\x"} 1\n' > "$out/broken.prom"
if promtool check metrics < "$out/broken.prom" 2>/dev/null; then echo "promtool accepted a bad escape" >&2; exit 1; fi
python3 "$here/check-nfd-labels.py" --self-test

export GPUCHECK_TODAY=2026-12-02
# run NAME ARGS...: the report in each format, into $out/NAME.<format>; exit 0 or 1 only.
run() {
  local name=$1
  shift
  for f in junit prometheus nfd markdown json; do
    local rc=0
    "$bin" "$@" --format "$f" > "$out/$name.$f" || rc=$?
    if [[ $rc -gt 1 ]]; then echo "$name: gpucheck $* --format $f exited $rc" >&2; exit 1; fi
  done
}
n=0
for dir in tests/fixtures/hosts/*/; do
  host=$(basename "$dir")
  run "$host.check" --root "${dir%/}" check
  run "$host.strict" --root "${dir%/}" check --strict --require bf16,fp8 --gpus 2
  run "$host.verify" --root "${dir%/}" verify "tests/fixtures/golden/$host.lock"
  n=$((n + 1))
done
for report in tests/data/kernels/*.json; do
  run "$(basename "$report" .json).from" --from "$report" check --require bf16
done
# The kernel checks on this machine: without a GPU they cannot run (exit 2), and say so in each format.
for f in junit prometheus nfd markdown; do
  rc=0
  "$bin" kernels --format "$f" > "$out/live.kernels.$f" || rc=$?
  [[ $rc -le 2 ]] || { echo "kernels --format $f exited $rc" >&2; exit 1; }
done

"$venv/bin/python" "$here/validate-junit.py" "$out"/*.junit
for p in "$out"/*.prometheus; do
  promtool check metrics < "$p" || { echo "promtool: $p" >&2; exit 1; }
done
python3 "$here/check-nfd-labels.py" "$out"/*.nfd
for j in "$out"/*.json; do python3 -m json.tool "$j" > /dev/null || { echo "not JSON: $j" >&2; exit 1; }; done
echo "check-formats: $n fixture hosts and $(ls "$out"/*.from.junit | wc -l) kernel reports: JUnit, Prometheus, NFD and JSON accepted by their consumers' checks"
