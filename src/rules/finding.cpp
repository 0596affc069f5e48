#include "rules/finding.hpp"

#include <algorithm>

namespace gpucheck {

std::string_view to_string(Severity s) {
  switch (s) {
    case Severity::info: return "info";
    case Severity::warning: return "warning";
    case Severity::error: return "error";
  }
  return "error";
}

std::optional<Severity> parse_severity(std::string_view s) {
  if (s == "info") return Severity::info;
  if (s == "warning") return Severity::warning;
  if (s == "error") return Severity::error;
  return std::nullopt;
}

bool finding_fails(const Finding& f, bool strict) {
  return f.severity == Severity::error || (strict && f.severity == Severity::warning);
}

Action verdict_action(const std::vector<Finding>& findings, bool strict) {
  Action out = Action::none;
  for (const auto& f : findings)
    if (finding_fails(f, strict) && f.action > out) out = f.action;
  return out;
}

int count(const std::vector<Finding>& findings, Severity s) {
  return static_cast<int>(std::count_if(findings.begin(), findings.end(), [&](const Finding& f) { return f.severity == s; }));
}

}  // namespace gpucheck
