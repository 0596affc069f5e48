// `recommend --pip`, for a person and as JSON.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "report/reports.hpp"
#include "rules/recommend_pip.hpp"

namespace gpucheck {

std::string render_pip_text(const PipRecommendations& r, const ReportOptions& o);
nlohmann::ordered_json pip_json(const PipRecommendations& r);

}  // namespace gpucheck
