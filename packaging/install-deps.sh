#!/usr/bin/env bash
# Installs what gpucheck needs to build and test on Debian 12 (or Ubuntu 22.04+).
# Safe to run twice: apt-get skips what is already installed.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config
  nlohmann-json3-dev libpugixml-dev libcli11-dev ccache               # build (ccache: used when present)
  libsimdjson-dev                                                     # gpucheck fleet: reading thousands of reports fast
  libcereal-dev                                                       # the built-in matrix's image, written by the build
  libcurl4-openssl-dev libssl-dev                                     # matrix updates: the download, Ed25519 signatures
  openssl                                                             # the update tests' keys and test CA
  zsh fish groff-base                                                 # the completions' and the man page's tests
  slurmctld slurmd slurm-client munge                                 # the Slurm prolog's test (a real single-node Slurm)
  catch2                                                              # tests (Catch2 v2)
  pciutils                                                            # pci.ids, for device names
  librocm-smi64-1                                                     # ROCm SMI, loaded (never linked) by the ROCm probe's test
  python3 python3-torch python3-venv                                  # the deep probe's test, the gate's venv, the collect_env benchmark
  clang libclang-rt-14-dev                                            # the fuzz targets (clang 14 and its libFuzzer, tests/fuzz)
  prometheus                                                          # promtool, which checks --format prometheus (tests/formats)
  lintian                                                             # the .deb checked against Debian policy (packaging/test-deb.sh)
)

if [ "$(id -u)" -ne 0 ]; then
  exec sudo -- "$0" "$@"
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: everything is installed"
  exit 0
fi
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}"
