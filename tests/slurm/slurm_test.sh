#!/usr/bin/env bash
# A real single-node Slurm (Debian's slurmctld, slurmd, munge) on
# 127.0.0.1, configured in a temporary directory and stopped at the end,
# with packaging/slurm/gpucheck-slurm as its Prolog: a healthy fixture host
# runs a job; a broken one drains the node with gpucheck's reason and the
# job does not run there; the health check drains and, asked to, resumes;
# a gpucheck that hangs is killed at the budget; the README's gate passes a
# healthy 8-GPU node and drains one whose 8 GPUs share a fault with a
# reason under 200 characters that ends on a whole word. Needs root (slurmd and
# scontrol update); exits 77 (ctest: skipped) without it or without Slurm.
# Usage: tests/slurm/slurm_test.sh GPUCHECK_BINARY [PROLOG]
# PROLOG: the script under test, packaging/slurm/gpucheck-slurm by default;
# packaging/test-deb.sh gives the one the .deb installed.
set -euo pipefail
bin=$(readlink -f "${1:?usage: slurm_test.sh GPUCHECK_BINARY [PROLOG]}")
repo=$(cd "$(dirname "$0")/../.." && pwd)
script=${2:-$repo/packaging/slurm/gpucheck-slurm}
for p in slurmctld slurmd munged scontrol sbatch; do
  command -v "$p" >/dev/null || PATH=$PATH:/usr/sbin
  command -v "$p" >/dev/null || { echo "slurm_test: $p is not installed (packaging/install-deps.sh); skipped"; exit 77; }
done
[ "$(id -u)" -eq 0 ] || { echo "slurm_test: needs root; skipped"; exit 77; }

dir=$(mktemp -d /tmp/gpucheck-slurm-test.XXXXXX)
node=$(hostname -s)
# Ports of our own, away from a real Slurm's 6817/6818.
port=$((20000 + $$ % 20000))
stop() {
  for pid in "$dir"/slurmd.pid "$dir"/slurmctld.pid "$dir"/munged.pid; do
    if [ -s "$pid" ]; then kill "$(cat "$pid")" 2>/dev/null || true; fi
  done
  sleep 1
  for pid in "$dir"/slurmd.pid "$dir"/slurmctld.pid "$dir"/munged.pid; do
    if [ -s "$pid" ]; then kill -9 "$(cat "$pid")" 2>/dev/null || true; fi
  done
  rm -rf "$dir"
}
trap stop EXIT
fail() {
  echo "slurm_test: FAILED: $*" >&2
  tail -n 20 "$dir"/*.log >&2 || true
  exit 1
}

mkdir -p "$dir"/munge "$dir"/state "$dir"/spool
chmod 700 "$dir"/munge
dd if=/dev/urandom of="$dir"/munge/munge.key bs=1024 count=1 status=none
chmod 400 "$dir"/munge/munge.key
munged --force --socket="$dir"/munge/sock --key-file="$dir"/munge/munge.key --pid-file="$dir"/munged.pid \
  --log-file="$dir"/munged.log --seed-file="$dir"/munge/seed

cat > "$dir"/slurm.conf <<CONF
ClusterName=gpucheck-test
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
AuthInfo=socket=$dir/munge/sock
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
SwitchType=switch/none
MpiDefault=none
SchedulerType=sched/builtin
SelectType=select/linear
ReturnToService=2
Prolog=$script
PrologFlags=Alloc
NodeName=$node NodeAddr=127.0.0.1 CPUs=1 State=UNKNOWN
PartitionName=test Nodes=$node Default=YES MaxTime=5 State=UP
CONF
export SLURM_CONF=$dir/slurm.conf
conf=$dir/gpucheck.conf  # beside slurm.conf, where the script looks
use_root() {  # SNAPSHOT [EXTRA CONF LINES]: the "node" gpucheck sees
  printf 'GPUCHECK=%s\nGPUCHECK_ARGS="--root %s"\nGPUCHECK_BUDGET=20\n%s\n' "$bin" "$1" "${2:-}" > "$conf"
}
use_host() { use_root "$repo/tests/fixtures/hosts/$1" "${2:-}"; }  # FIXTURE [EXTRA CONF LINES]
state() { scontrol show node "$node" | tr ' ' '\n' | sed -n 's/^State=//p'; }
reason() { scontrol show node "$node" | sed -n 's/^ *Reason=\(.*\) \[.*$/\1/p'; }
wait_for() {  # SECONDS COMMAND...: until it succeeds
  local until=$((SECONDS + $1))
  shift
  until "$@"; do
    [ $SECONDS -lt $until ] || return 1
    sleep 0.5
  done
}

slurmctld -i
slurmd -N "$node"
wait_for 30 sh -c "sinfo -h -o %t 2>/dev/null | grep -q idle" || fail "the node never came up idle"

# 1. A healthy host: the prolog passes and the job runs.
use_host a100-sxm4-4gpu
sbatch --wait -o "$dir/job1.out" --wrap "echo ran" >/dev/null || fail "the job on a healthy node failed"
grep -q ran "$dir/job1.out" || fail "the job did not run"
case $(state) in *DRAIN*) fail "a healthy node was drained: $(reason)" ;; esac
echo "slurm_test: healthy host: the job ran"

# 2. A broken host: the prolog drains the node with gpucheck's reason; the job is requeued, never run here.
use_host driver-mismatch
job=$(sbatch --parsable -o "$dir/job2.out" --wrap "echo ran")
wait_for 30 sh -c "scontrol show node $node | grep -q 'Reason=gpucheck'" || fail "the node was not drained by gpucheck"
[ "$(reason)" = "gpucheck: Kernel module and userspace driver differ (and 1 more) [reload-driver]" ] || fail "reason: $(reason)"
case $(state) in *DRAIN*) ;; *) fail "state $(state), expected drained" ;; esac
[ ! -s "$dir/job2.out" ] || fail "the job ran on a broken node"
scancel "$job"
echo "slurm_test: broken host: drained, reason \"$(reason)\""

# 3. The health check: resumes only what gpucheck drained, once it passes and only when asked.
use_host a100-sxm4-4gpu
SLURMD_NODENAME=$node "$script" healthcheck
case $(state) in *DRAIN*) ;; *) fail "the health check resumed without GPUCHECK_RESUME=yes" ;; esac
use_host a100-sxm4-4gpu GPUCHECK_RESUME=yes
SLURMD_NODENAME=$node "$script" healthcheck
wait_for 10 sh -c "! scontrol show node $node | grep -q DRAIN" || fail "the health check did not resume the node"
use_host driver-mismatch
SLURMD_NODENAME=$node "$script" healthcheck || fail "the health check itself failed"
[ "$(reason)" = "gpucheck: Kernel module and userspace driver differ (and 1 more) [reload-driver]" ] || fail "health check reason: $(reason)"
scontrol update NodeName="$node" State=DRAIN Reason="disk replacement"
use_host a100-sxm4-4gpu GPUCHECK_RESUME=yes
SLURMD_NODENAME=$node "$script" healthcheck
[ "$(reason)" = "disk replacement" ] || fail "the health check resumed an operator's drain"
scontrol update NodeName="$node" State=RESUME
echo "slurm_test: health check: drains, resumes its own drain only"

# 4. The budget: a gpucheck that hangs is killed, and the node is not passed.
printf '#!/bin/sh\nsleep 60\n' > "$dir/hung-gpucheck"
chmod +x "$dir/hung-gpucheck"
printf 'GPUCHECK=%s\nGPUCHECK_BUDGET=3\n' "$dir/hung-gpucheck" > "$conf"
start=$SECONDS
rc=0
SLURMD_NODENAME=$node SLURM_SCRIPT_CONTEXT=prolog_slurmd "$script" || rc=$?
took=$((SECONDS - start))
[ "$rc" -eq 1 ] || fail "a hung gpucheck: the prolog exited $rc, expected 1"
[ "$took" -le 6 ] || fail "a hung gpucheck: the prolog took $took s on a 3 s budget"
[ "$(reason)" = "gpucheck could not run: did not finish within 3 s" ] || fail "budget reason: $(reason)"
echo "slurm_test: hung gpucheck: killed after $took s of a 3 s budget, node drained"

# 5. The README's gate: a healthy H100 node passes it; the same node with
# its 8 GPUs unbound from the driver (a synthetic edit: one fault on every
# GPU) is drained with one short reason, not eight GPU names cut mid-word.
gate='GPUCHECK_CHECK_ARGS="--require bf16,fp8 --min-compute 9.0 --min-memory 80G --gpus 8 --strict"'
scontrol update NodeName="$node" State=RESUME
use_host h100-sxm-8gpu "$gate"
sbatch --wait -o "$dir/job5.out" --wrap "echo ran" >/dev/null || fail "the README's gate failed a healthy H100 node: $(reason)"
grep -q ran "$dir/job5.out" || fail "the job did not run under the README's gate"
cp -r "$repo/tests/fixtures/hosts/h100-sxm-8gpu" "$dir/unbound"
find "$dir/unbound/sys/bus/pci/devices" -maxdepth 2 -name driver -type l -lname '*drivers/nvidia' -delete
use_root "$dir/unbound" "$gate"
job=$(sbatch --parsable -o "$dir/job6.out" --wrap "echo ran")
wait_for 30 sh -c "scontrol show node $node | grep -q 'Reason=gpucheck'" || fail "the unbound node was not drained by gpucheck"
r=$(reason)
[ "${#r}" -lt 200 ] || fail "drain reason of ${#r} characters: $r"
case $r in
  "gpucheck: NVIDIA GPU with no kernel driver bound (8 GPUs)"*"[reload-driver]") ;;
  *) fail "drain reason: $r" ;;
esac
scancel "$job"
echo "slurm_test: README gate: healthy H100 passes; 8 unbound GPUs drain as \"$r\" (${#r} characters)"
echo "slurm_test: passed"
