#!/usr/bin/env bash
# The Kubernetes manifests (packaging/kubernetes/*.yaml) against the
# Kubernetes 1.31 schemas of kubernetes-validate (from the package index,
# pinned, in a virtual environment of our own), strictly; then the
# DaemonSet's own script, run here with the real gpucheck on fixture hosts,
# must write an NFD feature file and a Prometheus textfile their consumers
# accept, where the manifest mounts NFD's local-source directory and the
# textfile directory. Each check is first shown something broken and must
# refuse it. Last, the torchrun and Accelerate wrappers (test-launchers.sh).
# Usage: validate.sh GPUCHECK_BINARY WORK_DIR
set -euo pipefail

bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
mkdir -p "$2"
work=$(cd "$2" && pwd)
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
cd "$repo"

k8s_version=1.31.0
venv=$work/kubernetes-venv
if ! "$venv/bin/python" -c 'import kubernetes_validate, yaml' 2>/dev/null; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check 'kubernetes-validate==1.37.0'
fi
py=$venv/bin/python
check=$here/check-manifests.py

out=$work/kubernetes-out
rm -rf "$out"
mkdir -p "$out"

manifests=(packaging/kubernetes/*.yaml)
[[ ${#manifests[@]} -ge 3 ]] || { echo "expected the DaemonSet, training and sweep manifests, found ${manifests[*]}" >&2; exit 1; }

# 1. The schema check refuses broken copies of our own manifests.
refuse() { # NAME SED_EXPR FILE: the copy with SED_EXPR applied must fail validation
  local name=$1 expr=$2 file=$3
  sed -e "$expr" "$file" > "$out/broken-$name.yaml"
  cmp -s "$file" "$out/broken-$name.yaml" && { echo "broken copy $name: '$expr' changed nothing in $file" >&2; exit 1; }
  if "$py" "$check" validate "$k8s_version" "$out/broken-$name.yaml" 2>"$out/broken-$name.err"; then
    echo "the schema check accepted a broken manifest ($name: $expr on $file)" >&2; exit 1
  fi
  echo "refused as it should be: $name: $(cat "$out/broken-$name.err")"
}
refuse removed-api   's|^apiVersion: apps/v1$|apiVersion: extensions/v1beta1|' packaging/kubernetes/daemonset.yaml
refuse unknown-field 's|^      hostNetwork: false$|      hostNetwork: false\n      hostNetwrok: true|' packaging/kubernetes/daemonset.yaml
refuse wrong-type    's|^  backoffLimit: 2$|  backoffLimit: "two"|' packaging/kubernetes/training-job.yaml
refuse no-containers '/^      containers:$/,$d' packaging/kubernetes/sweep-job.yaml

# 2. Every manifest, every document.
"$py" "$check" validate "$k8s_version" "${manifests[@]}"

# 3. The DaemonSet writes where NFD and node_exporter read, and the jobs
#    select on labels gpucheck writes (a real nfd output of a passing host).
"$bin" --root tests/fixtures/hosts/a100-sxm4-4gpu check --format nfd > "$out/sample.nfd"
"$py" "$check" layout packaging/kubernetes/daemonset.yaml "$out/sample.nfd" \
  packaging/kubernetes/training-job.yaml packaging/kubernetes/sweep-job.yaml --out "$out"
sed 's|gpucheck.check.status|gpucheck.status|' packaging/kubernetes/training-job.yaml > "$out/broken-label.yaml"
if "$py" "$check" layout packaging/kubernetes/daemonset.yaml "$out/sample.nfd" "$out/broken-label.yaml" --out "$out/x" 2>/dev/null; then
  echo "the layout check accepted a node affinity on a label gpucheck never writes" >&2; exit 1
fi
sed 's|^\( *\)nfd=/etc/kubernetes/node-feature-discovery/features.d/gpucheck$|\1nfd=/etc/kubernetes/node-feature-discovery/gpucheck|' \
  packaging/kubernetes/daemonset.yaml > "$out/broken-nfd-path.yaml"
cmp -s packaging/kubernetes/daemonset.yaml "$out/broken-nfd-path.yaml" && { echo "broken-nfd-path: the sed changed nothing" >&2; exit 1; }
if "$py" "$check" layout "$out/broken-nfd-path.yaml" "$out/sample.nfd" packaging/kubernetes/training-job.yaml --out "$out/x" 2>/dev/null; then
  echo "the layout check accepted an NFD file outside NFD's local-source directory" >&2; exit 1
fi

# 4. The DaemonSet's script itself, on fixture hosts: its absolute paths
#    moved under $out/node, `gpucheck` a stub that replays a fixture with the
#    real binary (and fails `matrix update` as an offline node would), and
#    `sleep` a stub that ends the loop after one round.
command -v promtool >/dev/null || { echo "promtool not found: install Debian's prometheus (packaging/install-deps.sh)" >&2; exit 1; }
run_daemonset() { # FIXTURE [unjudged] -> $out/node/...
  local fixture=$1 unjudged=${2:-} node=$out/node stubs=$out/stubs
  rm -rf "$node" "$stubs"
  mkdir -p "$stubs"
  # shellcheck disable=SC1091
  (
    . "$out/env.sh"
    mkdir -p "$node$(dirname "$NFD_FILE")" "$node$(dirname "$PROM_FILE")" "$node$GPUCHECK_CACHE_DIR"
    # A pass left by an earlier round: a run that cannot judge must take it away.
    echo "feature.node.kubernetes.io/gpucheck.check.status=pass" > "$node$NFD_FILE"
    sed -e "s|=/etc/|=$node/etc/|; s|=/var/|=$node/var/|" "$out/loop.sh" > "$out/loop-here.sh"
    cat > "$stubs/gpucheck" <<STUB
#!/bin/sh
echo "\$*" >> "$out/gpucheck-calls"
case " \$* " in *" matrix update "*) echo "gpucheck: stub: no network here" >&2; exit 2 ;; esac
exec "$bin" "\$@" --root "$repo/$fixture"
STUB
    printf '#!/bin/sh\nkill -TERM "$PPID"\nexit 0\n' > "$stubs/sleep"
    chmod +x "$stubs/gpucheck" "$stubs/sleep"
    export GPUCHECK_CACHE_DIR=$node$GPUCHECK_CACHE_DIR GPUCHECK_TODAY=2026-12-02
    rm -f "$out/gpucheck-calls"
    PATH=$stubs:$PATH timeout 120 /bin/sh "$out/loop-here.sh" 2> "$out/loop.err" &
    wait $! || true
    grep -q 'matrix update exited 2; the matrix in use stays' "$out/loop.err" \
      || { echo "the script did not go on past a failed matrix update" >&2; cat "$out/loop.err" >&2; exit 1; }
    [[ $(grep -c ' check ' "$out/gpucheck-calls") -eq 1 ]] || { echo "expected one check (both files) in one round" >&2; cat "$out/gpucheck-calls" >&2; exit 1; }
    if [[ -n $unjudged ]]; then
      [[ ! -e $node$NFD_FILE ]] || { echo "a run that exited 2 left the NFD labels in place" >&2; exit 1; }
      grep -q 'its labels removed' "$out/loop.err" || { echo "the script did not log the removed labels" >&2; exit 1; }
      exit 0
    fi
    head -1 "$node$NFD_FILE" | grep -Eq '^# \+expiry-time=2026-12-02T00:15:00Z$' \
      || { echo "the NFD file does not expire three intervals on" >&2; head -1 "$node$NFD_FILE" >&2; exit 1; }
    cp "$node$NFD_FILE" "$out/$(basename "$fixture").nfd"
    cp "$node$PROM_FILE" "$out/$(basename "$fixture").prom"
    if ls -A "$node$(dirname "$NFD_FILE")" "$node$(dirname "$PROM_FILE")" | grep -q '^\.'; then
      echo "a temporary dot file was left beside the outputs" >&2; exit 1
    fi
    grep -q ' matrix update' "$out/gpucheck-calls" || { echo "the script never ran matrix update" >&2; exit 1; }
  )
}
python3 tests/formats/check-nfd-labels.py --self-test
for fixture_want in a100-sxm4-4gpu:pass:1 driver-mismatch:fail:0; do
  IFS=: read -r fixture want verdict <<< "$fixture_want"
  run_daemonset "tests/fixtures/hosts/$fixture"
  python3 tests/formats/check-nfd-labels.py "$out/$fixture.nfd"
  grep -qx "feature.node.kubernetes.io/gpucheck.check.status=$want" "$out/$fixture.nfd" \
    || { echo "$fixture: the NFD file does not say status=$want" >&2; cat "$out/$fixture.nfd" >&2; exit 1; }
  promtool check metrics < "$out/$fixture.prom"
  if [[ $want == fail ]]; then
    grep -q 'the node fails (exit 1)' "$out/loop.err" || { echo "$fixture: the script did not log the failing node" >&2; exit 1; }
  fi
  grep -Eq "^gpucheck_verdict_pass\{[^}]*command=\"check\"[^}]*\} $verdict$" "$out/$fixture.prom" \
    || { echo "$fixture: the textfile does not say gpucheck_verdict_pass $verdict" >&2; exit 1; }
  echo "$fixture: the DaemonSet's script wrote status=$want to the NFD local source and a textfile promtool accepts"
done
run_daemonset tests/fixtures/hosts/does-not-exist unjudged
echo "no fixture host: gpucheck exited 2, and the DaemonSet's script removed the node's labels"
echo "kubernetes: manifests valid for Kubernetes $k8s_version; the DaemonSet's outputs accepted by NFD's rules and promtool"

# 5. The torchrun and Accelerate wrappers (packaging/launchers/).
"$here/test-launchers.sh" "$bin" "$work"
