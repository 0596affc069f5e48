#!/usr/bin/env bash
# packaging/launchers/gpucheck-torchrun and gpucheck-accelerate, with the
# real gpucheck on fixture hosts (--root in GPUCHECK_ARGS) and stub
# `torchrun` and `accelerate` on PATH that record their arguments:
#   gpucheck passes -> the launcher runs with exactly its arguments;
#   gpucheck fails (exit 1) -> the launcher never runs, exit 1, gpucheck's
#   reason on standard error; gpucheck could not run (exit 2) -> refused
#   unless GPUCHECK_ON_ERROR=run.
# Usage: test-launchers.sh GPUCHECK_BINARY WORK_DIR
set -euo pipefail

bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
mkdir -p "$2"
work=$(cd "$2" && pwd)/launchers
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
torchrun_w=$repo/packaging/launchers/gpucheck-torchrun
accelerate_w=$repo/packaging/launchers/gpucheck-accelerate
pass_host=$repo/tests/fixtures/hosts/a100-sxm4-4gpu     # 4 A100s, a clean stack: check passes
fail_host=$repo/tests/fixtures/hosts/driver-mismatch    # kernel module 550.54.14, libcuda 550.90.07: check fails

rm -rf "$work"
mkdir -p "$work/stubs"
for l in torchrun accelerate; do
  cat > "$work/stubs/$l" <<STUB
#!/bin/sh
for a; do printf '%s\n' "\$a"; done > "$work/$l.args"
exit \${STUB_EXIT:-0}
STUB
  chmod +x "$work/stubs/$l"
done
export PATH=$work/stubs:$PATH GPUCHECK=$bin GPUCHECK_TODAY=2026-12-02
unset GPUCHECK_ARGS GPUCHECK_ON_ERROR GPUCHECK_LAUNCHER

# The wrappers are POSIX sh: run them with dash where it exists.
shell="sh"
command -v dash >/dev/null && shell=dash

n=0
# run NAME WANT_RC WRAPPER ARG...: runs it, checks the exit code.
run() {
  local name=$1 want=$2 wrapper=$3
  shift 3
  rm -f "$work"/*.args
  local rc=0
  "$shell" "$wrapper" "$@" > "$work/$name.out" 2> "$work/$name.err" || rc=$?
  if [[ $rc -ne $want ]]; then
    echo "$name: exit $rc, expected $want" >&2; cat "$work/$name.err" >&2; exit 1
  fi
  n=$((n + 1))
}
ran_with() { # LAUNCHER EXPECTED_ARG...: the launcher ran with exactly these
  local l=$1
  shift
  [[ -f $work/$l.args ]] || { echo "$l did not run" >&2; exit 1; }
  local want
  want=$(printf '%s\n' "$@")
  [[ "$(cat "$work/$l.args")" == "$want" ]] || { echo "$l ran with:" >&2; cat "$work/$l.args" >&2; echo "expected:" >&2; echo "$want" >&2; exit 1; }
}
never_ran() { [[ ! -e $work/$1.args ]] || { echo "$1 ran, and must not have" >&2; exit 1; }; }
says() { grep -qF -- "$2" "$work/$1.err" || { echo "$1: standard error does not say: $2" >&2; cat "$work/$1.err" >&2; exit 1; }; }

# gpucheck passes: torchrun gets every argument, spaces and `--` included.
GPUCHECK_ARGS="--root $pass_host" run pass 0 "$torchrun_w" \
  --gpucheck --gpus 4 --require bf16 -- --nproc-per-node 4 train.py --name "two words" -- --lr 1e-4
ran_with torchrun --nproc-per-node 4 train.py --name "two words" -- --lr 1e-4
says pass "gpucheck check passed; starting torchrun"
# torchrun's exit code is the wrapper's (exec).
STUB_EXIT=7 GPUCHECK_ARGS="--root $pass_host" run exit-code 7 "$torchrun_w" train.py
ran_with torchrun train.py
# Without --gpucheck every argument is torchrun's, a `--` too.
GPUCHECK_ARGS="--root $pass_host" run no-gpucheck-options 0 "$torchrun_w" --standalone train.py -- --gpus 99
ran_with torchrun --standalone train.py -- --gpus 99

# gpucheck fails: torchrun never runs; exit 1 with gpucheck's reason.
GPUCHECK_ARGS="--root $fail_host" run fail 1 "$torchrun_w" --nproc-per-node 8 train.py
never_ran torchrun
says fail "Kernel module and userspace driver differ"
says fail "not starting torchrun: this node fails gpucheck check (exit 1"
# The options after --gpucheck reach gpucheck: a passing host, but fewer
# GPUs than the job asks for.
run too-few-gpus 1 "$torchrun_w" --gpucheck --root "$pass_host" --gpus 8 -- train.py
never_ran torchrun
says too-few-gpus "not starting torchrun"
says too-few-gpus "Fewer GPUs than required"

# gpucheck could not run (exit 2): refused by default, started on request.
run cannot-run 2 "$torchrun_w" --gpucheck --root "$work/no-such-host" -- train.py
never_ran torchrun
says cannot-run "no such directory"
says cannot-run "gpucheck could not run (exit 2)"
GPUCHECK_ON_ERROR=run run cannot-run-allowed 0 "$torchrun_w" --gpucheck --root "$work/no-such-host" -- train.py
ran_with torchrun train.py
says cannot-run-allowed "starting torchrun unchecked"
GPUCHECK=$work/no-such-gpucheck run no-binary 2 "$torchrun_w" train.py
never_ran torchrun
run no-separator 2 "$torchrun_w" --gpucheck --gpus 8 train.py
never_ran torchrun
GPUCHECK_ON_ERROR=maybe run bad-policy 2 "$torchrun_w" train.py
never_ran torchrun

# gpucheck-accelerate: `accelerate launch` with the arguments, or nothing.
GPUCHECK_ARGS="--root $pass_host" run accelerate-pass 0 "$accelerate_w" \
  --gpucheck --require bf16 -- --num_processes 4 train.py --name "two words"
ran_with accelerate launch --num_processes 4 train.py --name "two words"
GPUCHECK_ARGS="--root $fail_host" run accelerate-fail 1 "$accelerate_w" --num_processes 8 train.py
never_ran accelerate
says accelerate-fail "Kernel module and userspace driver differ"
says accelerate-fail "not starting accelerate"

# No report file is left behind in TMPDIR.
mkdir -p "$work/tmp"
TMPDIR=$work/tmp GPUCHECK_ARGS="--root $fail_host" run tmp-clean 1 "$torchrun_w" train.py
TMPDIR=$work/tmp GPUCHECK_ARGS="--root $pass_host" run tmp-clean-pass 0 "$torchrun_w" train.py
[[ -z "$(ls -A "$work/tmp")" ]] || { echo "a report file was left in TMPDIR: $(ls -A "$work/tmp")" >&2; exit 1; }

echo "launchers: $n runs with $shell: the launcher starts only after gpucheck passes, with its arguments unchanged"
