// Placeholder: implemented with issue 3.
#include "probe.hpp"

namespace gpucheck {

void probe_cuda_toolkits(ProbeContext&) {}

}  // namespace gpucheck
