#!/usr/bin/env bash
# Installs the .deb on this machine with dpkg, runs gpucheck from the
# installed path, checks the man page and the completions it ships, and
# removes it: what a user's package manager does. Needs root (CI is).
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
trap 'dpkg -r gpucheck >/dev/null 2>&1 || true' EXIT
dpkg -i "$deb" >/dev/null

/usr/bin/gpucheck --version | grep -q "^gpucheck " || fail "gpucheck --version"
rc=0
/usr/bin/gpucheck check >/dev/null 2>&1 || rc=$?
# 0 and 1 are verdicts about this machine; 2 is gpucheck failing to run.
[ "$rc" -le 1 ] || fail "gpucheck check exited $rc"
/usr/bin/gpucheck check --json | python3 -c 'import json,sys; assert json.load(sys.stdin)["schema"] == "gpucheck.check/1"' \
  || [ "${PIPESTATUS[0]}" -le 1 ] || fail "gpucheck check --json"

man_page=/usr/share/man/man1/gpucheck.1
[ -s "$man_page" ] || fail "no man page"
warnings=$(groff -man -Tutf8 -wmac -z "$man_page" 2>&1)
[ -z "$warnings" ] || fail "man page: $warnings"
bash -c 'source /usr/share/bash-completion/completions/gpucheck && complete -p gpucheck' >/dev/null || fail "bash completion"
if command -v zsh >/dev/null; then zsh -n /usr/share/zsh/vendor-completions/_gpucheck || fail "zsh completion"; fi
if command -v fish >/dev/null; then fish -n /usr/share/fish/vendor_completions.d/gpucheck.fish || fail "fish completion"; fi
[ -f /usr/share/doc/gpucheck/copyright ] || fail "no copyright file"

dpkg -r gpucheck >/dev/null
trap - EXIT
[ ! -e /usr/bin/gpucheck ] || fail "/usr/bin/gpucheck left after dpkg -r"
[ ! -e "$man_page" ] || fail "man page left after dpkg -r"
echo "test-deb: $(basename "$deb"): installed, ran (check exit $rc), removed cleanly"
