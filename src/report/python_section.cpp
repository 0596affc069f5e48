// Text report: Python environments (placeholder: the Python probe's author completes it).
#include "report/text_writer.hpp"

namespace gpucheck {

void python_section(Writer& w, const Facts& f) {
  for (auto& e : f.software.python) w.fact("Python", e.interpreter);
}

}  // namespace gpucheck
