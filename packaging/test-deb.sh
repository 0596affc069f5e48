#!/usr/bin/env bash
# Checks the .deb with lintian (no error), installs it on this machine
# with dpkg, runs gpucheck from the installed path, checks the man page
# and the completions it ships, runs the installed Slurm prolog in a real
# single-node Slurm (tests/slurm/slurm_test.sh) and the node-problem-
# detector plugin on fixture hosts, and removes it: what a user's package
# manager does. Needs root (CI is).
# Usage: packaging/test-deb.sh PACKAGE.deb
set -euo pipefail
deb=${1:?usage: packaging/test-deb.sh PACKAGE.deb}
if [ "$(id -u)" -ne 0 ]; then
  echo "test-deb: skipped: dpkg -i needs root"
  exit 0
fi
if dpkg-query -W -f='${Status}' gpucheck 2>/dev/null | grep -q "install ok installed"; then
  echo "test-deb: a gpucheck package is already installed here; not replacing it" >&2
  exit 1
fi
fail() { echo "test-deb: FAILED: $*" >&2; exit 1; }
# Only matrix updates load libcurl and libcrypto: recommended, never required.
case $(dpkg-deb -f "$deb" Depends) in *libcurl*|*libssl*) fail "Depends names libcurl or libssl: $(dpkg-deb -f "$deb" Depends)" ;; esac
dpkg-deb -f "$deb" Recommends | grep -q 'libcurl4 (>= 7.85.0)' || fail "Recommends does not name libcurl4 (>= 7.85.0)"
repo=$(cd "$(dirname "$0")/.." && pwd)
if command -v lintian >/dev/null; then
  # Warnings are listed, errors fail (docs/packaging.md says which remain and why).
  lintian --fail-on error --tag-display-limit 0 "$deb" 2>&1 | grep -v 'root privileges' || fail "lintian: errors above"
fi
trap 'dpkg -r gpucheck >/dev/null 2>&1 || true' EXIT
dpkg -i "$deb" >/dev/null

/usr/bin/gpucheck --version | grep -q "^gpucheck " || fail "gpucheck --version"
rc=0
/usr/bin/gpucheck check >/dev/null 2>&1 || rc=$?
# 0 and 1 are verdicts about this machine; 2 is gpucheck failing to run.
[ "$rc" -le 1 ] || fail "gpucheck check exited $rc"
/usr/bin/gpucheck check --json | python3 -c 'import json,sys; assert json.load(sys.stdin)["schema"] == "gpucheck.check/1"' \
  || [ "${PIPESTATUS[0]}" -le 1 ] || fail "gpucheck check --json"

man_page=/usr/share/man/man1/gpucheck.1.gz
[ -s "$man_page" ] || fail "no man page"
warnings=$(zcat "$man_page" | groff -man -Tutf8 -wmac -z 2>&1)
[ -z "$warnings" ] || fail "man page: $warnings"
# What mandb puts in the whatis database, and so what `apropos gpu` shows.
if command -v lexgrog >/dev/null; then
  lexgrog "$man_page" | grep -q "gpucheck - pre-flight check of a GPU machine's driver" || fail "man page NAME: $(lexgrog "$man_page")"
fi
bash -c 'source /usr/share/bash-completion/completions/gpucheck && complete -p gpucheck' >/dev/null || fail "bash completion"
if command -v zsh >/dev/null; then zsh -n /usr/share/zsh/vendor-completions/_gpucheck || fail "zsh completion"; fi
if command -v fish >/dev/null; then fish -n /usr/share/fish/vendor_completions.d/gpucheck.fish || fail "fish completion"; fi
[ -f /usr/share/doc/gpucheck/copyright ] || fail "no copyright file"
if readelf -d /usr/bin/gpucheck | grep -qE 'RPATH|RUNPATH'; then fail "the installed binary has an RPATH or RUNPATH"; fi

# The programs it installs are programs: executable where the docs say.
for p in /usr/libexec/gpucheck/gpucheck-slurm /usr/libexec/gpucheck/gpucheck-npd /usr/bin/gpucheck-torchrun /usr/bin/gpucheck-accelerate; do
  [ -x "$p" ] || fail "$p is not an executable"
done
# node-problem-detector's plugin protocol: 0 OK, 1 NonOK (its message the
# verdict's line), 2 Unknown.
npd=/usr/libexec/gpucheck/gpucheck-npd
out=$("$npd" --root "$repo/tests/fixtures/hosts/a100-sxm4-4gpu") || fail "npd plugin on a healthy host exited $?"
[ "$out" = "PASS" ] || fail "npd plugin on a healthy host said: $out"
rc=0; out=$("$npd" --root "$repo/tests/fixtures/hosts/driver-mismatch") || rc=$?
[ "$rc" -eq 1 ] || fail "npd plugin on a failing host exited $rc, expected 1"
case $out in "FAIL: "*"[reload-driver]") ;; *) fail "npd plugin on a failing host said: $out" ;; esac
rc=0; out=$("$npd" --root /nonexistent) || rc=$?
[ "$rc" -eq 2 ] || fail "npd plugin that could not judge exited $rc, expected 2"
# The Slurm prolog and health check as slurm.conf names them, in a real Slurm.
rc=0
"$repo/tests/slurm/slurm_test.sh" /usr/bin/gpucheck /usr/libexec/gpucheck/gpucheck-slurm || rc=$?
[ "$rc" -eq 0 ] || [ "$rc" -eq 77 ] || fail "the installed Slurm prolog: slurm_test.sh exited $rc"

dpkg -r gpucheck >/dev/null
trap - EXIT
[ ! -e /usr/bin/gpucheck ] || fail "/usr/bin/gpucheck left after dpkg -r"
[ ! -e "$man_page" ] || fail "man page left after dpkg -r"
echo "test-deb: $(basename "$deb"): installed, ran (check exit $rc), removed cleanly"
