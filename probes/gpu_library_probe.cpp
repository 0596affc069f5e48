// Placeholder: implemented with issue 3.
#include "probe.hpp"

namespace gpucheck {

void probe_gpu_libraries(ProbeContext&) {}

}  // namespace gpucheck
