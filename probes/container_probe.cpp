// Placeholder: implemented with issue 3.
#include "probe.hpp"

namespace gpucheck {

void probe_container_runtime(ProbeContext&) {}

}  // namespace gpucheck
