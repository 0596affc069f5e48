#include "rules/categories.hpp"

#include <algorithm>

namespace gpucheck {

const std::vector<Category>& categories() {
  static const std::vector<Category> all = {
      {"driver-missing", "a GPU without a working driver: none bound, none loaded, or libcuda not found"},
      {"driver-mismatch", "the parts of the driver disagree: kernel module, userspace library, fabric manager"},
      {"driver-too-old", "the driver is older than a toolkit, framework build or container needs"},
      {"driver-lifecycle", "a driver branch past NVIDIA's end of life, or a short-lived new feature branch"},
      {"cuda-stub", "libcuda resolves to a CUDA toolkit's link stub"},
      {"arch-unsupported", "a build has no code for this GPU's architecture (too new or dropped), or the GPU is below --min-compute"},
      {"cpu-only-build", "a framework built without GPU support on a host with GPUs"},
      {"precision-unsupported", "a precision requested (--require) or used that the architecture lacks, or a kernel check of one failed"},
      {"tf32", "FP32 matmuls run as TF32, or do not though they could"},
      {"library-mismatch", "GPU libraries that disagree: wheels against a framework's pins, mixed CUDA majors, a shadowed copy"},
      {"multiple-cuda", "several CUDA toolkits or runtimes where the wrong one can win"},
      {"known-bug", "a combination with a reported bug"},
      {"fabric-manager", "an NVSwitch system whose fabric manager is missing, stopped or of another version"},
      {"p2p-topology", "GPU peer-to-peer paths slower than the system allows"},
      {"toolkit-missing", "a CUDA toolkit needed and not found"},
      {"rocm-unsupported", "a ROCm release, framework build or distribution that does not support this AMD GPU"},
      {"visible-devices", "CUDA_VISIBLE_DEVICES (or HIP's) that hides, misnames or cannot select GPUs; fewer GPUs than --gpus"},
      {"hardware-health", "ECC errors, retired or remapped memory, throttling, a degraded link, a slow kernel check, less memory than --min-memory"},
      {"interconnect", "the links between GPUs and between nodes: ACS on a PCIe switch with a translating IOMMU, a degraded link above a GPU, NVLink links down, RDMA ports down or slow, GPUDirect RDMA missing, NCCL settings that turn off what the node has"},
      {"container", "a container whose image and host disagree"},
      {"lock-drift", "the host differs from the lockfile (gpucheck verify)"},
      {"matrix-age", "the matrix in use is older than 90 days: what is newer than it is not judged"},
      {"report-conflict", "a pasted report that states one fact twice with different values (--from)"},
      {"not-environment", "what a pasted error shows is no fault of the stack: a capacity question (out of memory) or the program's own bug"},
      {"unverified", "on a host with GPUs, a probe that could not answer (hung, crashed, failed) or a check asked for that did not run: what it would have shown is not proven"},
  };
  return all;
}

bool known_category(std::string_view name) {
  const auto& all = categories();
  return std::any_of(all.begin(), all.end(), [&](const Category& c) { return name == c.name; });
}

}  // namespace gpucheck
