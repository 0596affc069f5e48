// Text report: ROCm (placeholder: the ROCm probe's author completes it).
#include "report/text_writer.hpp"

namespace gpucheck {

void rocm_section(Writer&, const Facts&) {}

}  // namespace gpucheck
