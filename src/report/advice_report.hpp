// Renderings of `recommend` and `explain`, for a person and as JSON.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "report/reports.hpp"
#include "rules/explain.hpp"
#include "rules/recommend.hpp"

namespace gpucheck {

std::string render_recommendations_text(const Recommendations& r, const ReportOptions& o);
nlohmann::ordered_json recommendations_json(const Recommendations& r);

// `where`: what the facts came from ("this host", "--from FILE (paste)").
std::string render_explanations_text(const std::string& message, const std::vector<Explanation>& e, const std::string& where,
                                     const ReportOptions& o);
nlohmann::ordered_json explanations_json(const std::string& message, const std::vector<Explanation>& e);

}  // namespace gpucheck
