// Text report: what the loader would load for a framework object (placeholder).
#include "report/text_writer.hpp"

namespace gpucheck {

void loader_lines(Writer& w, const LoaderView& v) { w.fact("", v.object); }

}  // namespace gpucheck
