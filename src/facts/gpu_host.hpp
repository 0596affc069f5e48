// Whether this is a GPU host, and by whose word. Any source that says GPUs
// are here makes it one, so a host whose PCI tree is not visible (WSL2, a
// sandboxed container, a snapshot without sys/) is held to the same gate as
// one whose tree is. And how many GPUs a job here can use.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "facts/facts.hpp"

namespace gpucheck {

struct GpuHostEvidence {
  // What says NVIDIA GPUs are (or should be) here: "PCI 0000:18:00.0",
  // "/proc/driver/nvidia", "/dev/nvidia0", "nvidia-smi", "libcuda.so.1 (…)".
  std::vector<std::string> nvidia;
  std::vector<std::string> amd;    // "PCI …", "KFD topology", "ROCm SMI"
  std::vector<std::string> other;  // a GPU of no known vendor: WSL2's "/dev/dxg"
  bool nvidia_host() const { return !nvidia.empty(); }
  bool amd_host() const { return !amd.empty(); }
  bool any() const { return nvidia_host() || amd_host() || !other.empty(); }
  std::vector<std::string> all() const;  // every piece, NVIDIA's first
};

// On a probed host. A report (--from) is judged by what it shows: the GPUs
// it lists.
GpuHostEvidence gpu_host_evidence(const Facts& f);

// Whether the NVIDIA driver is here (its module, device nodes, libcuda that
// is not a toolkit stub, nvidia-smi that ran), on a probed host: what the
// driver-present-but-no-GPU finding needs. Empty: no part of it.
std::vector<std::string> nvidia_driver_evidence(const Facts& f);

// How many GPUs a job can use: the devices the CUDA driver API lists (after
// CUDA_VISIBLE_DEVICES, on the host and in the container it runs in), plus
// the AMD GPUs KFD lists. Unknown (nullopt) when the CUDA driver API did not
// answer on an NVIDIA GPU host, or its count failed; `why` then says why.
struct UsableGpus {
  std::optional<int> count;
  std::string source;  // what counted them
  std::string why;     // when count is unknown
};
UsableGpus usable_gpus(const Facts& f);

// The per-GPU device nodes (/dev/nvidia0 …), without the control node.
int nvidia_gpu_device_nodes(const Facts& f);

}  // namespace gpucheck
