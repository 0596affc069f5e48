// `gpucheck check`'s output: findings first (what is wrong, the evidence and
// where each fact was read, the fix, the source), then a short summary of
// the stack. The JSON (schema gpucheck.check/1, docs/check-output.md) holds
// the facts as well, so a saved check can be read back with --from.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "facts/facts.hpp"
#include "matrix/matrix.hpp"
#include "report/reports.hpp"
#include "rules/finding.hpp"
#include "rules/outcome.hpp"

namespace gpucheck {

inline constexpr const char* kCheckSchema = "gpucheck.check/1";

struct CheckReport {
  const Facts& facts;
  const std::vector<Finding>& findings;
  const Matrix& matrix;
  bool strict = false;
  Outcome outcome = Outcome::pass;  // the verdict (docs/exit-codes.md)
  std::string source;               // "this host", "--root DIR", "--from FILE (PyTorch collect_env)"
  const std::vector<NotShown>& not_shown;  // what a paste lacks
};

// The stack in a few lines, as (label, value): what a person checks first
// (the text report's Stack section, the Markdown report's).
std::vector<std::pair<std::string, std::string>> stack_summary(const Facts& f);

std::string render_check_text(const CheckReport& r, const ReportOptions& o);
std::string render_check_json(const CheckReport& r, const ReportOptions& o);

// One finding as the JSON reports write it (`check --json`, `explain --json`).
nlohmann::ordered_json finding_json(const Finding& f);

// One finding, as the text report prints it, each line after `indent`
// (`explain` prints it under the rule that matched).
std::string render_finding_text(const Finding& f, const ReportOptions& o, const std::string& indent = "");

}  // namespace gpucheck
