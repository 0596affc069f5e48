#include "facts/fact_limits.hpp"

#include <algorithm>

namespace gpucheck {

std::size_t gpus_listed(const Facts& f) {
  std::size_t n = std::max({f.pci.size(), f.nvidia_driver.gpus.size(), f.software.rocm.gpu_nodes.size()});
  if (f.nvidia_smi) n = std::max(n, f.nvidia_smi->gpus.size());
  if (f.cuda) n = std::max(n, f.cuda->devices.size());
  return n;
}

std::size_t packages_listed(const Facts& f) {
  std::size_t n = 0;
  for (const auto& env : f.software.python) n = std::max(n, env.distributions.size());
  return n;
}

}  // namespace gpucheck
