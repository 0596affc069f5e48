#include <utility>

#include "facts/facts_json.hpp"
#include "report/reports.hpp"
#include "util/json_text.hpp"

namespace gpucheck {

std::string render_facts_json(const Facts& f, const ReportOptions& o) {
  auto j = to_json(f);
  nlohmann::ordered_json out;
  out["schema"] = j["schema"];
  out["gpucheck_version"] = o.version;
  for (auto& [k, v] : j.items())
    if (k != "schema") out[k] = std::move(v);
  return dump_json(out, 2) + "\n";
}

}  // namespace gpucheck
