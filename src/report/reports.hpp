// Renderings of Facts: for a person (grouped, each fact with where it was
// read, unknowns with their reason) and for programs (JSON, schema in docs/).
#pragma once

#include <string>

#include "facts/facts.hpp"

namespace gpucheck {

struct ReportOptions {
  bool color = false;
  std::string version;  // gpucheck's own, printed first
};

std::string render_facts_text(const Facts& f, const ReportOptions& o);
std::string render_facts_json(const Facts& f, const ReportOptions& o);

}  // namespace gpucheck
