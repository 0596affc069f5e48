// Many hosts against one lock: nodes grouped by the drift they share, so a
// fleet of a thousand reads as a handful of lines (report/verify_report.hpp).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "rules/finding.hpp"
#include "util/result.hpp"

namespace gpucheck {

struct FleetNode {
  std::string name;                // the report's file name
  std::vector<Finding> findings;   // compare_lock's answer
  std::optional<Problem> problem;  // the report could not be read
};

struct DriftGroup {
  std::vector<std::string> drifts;  // "driver.version: pinned 550.54.14, found 535.104.05 (same-branch)"; empty: none
  std::optional<std::string> unreadable;  // set for the group of reports that could not be read
  std::vector<std::string> nodes;
};

// Groups by the set of error drifts (within-policy moves do not split a
// group). Order: no drift first, then larger groups, then by text; nodes by name.
std::vector<DriftGroup> group_by_drift(const std::vector<FleetNode>& nodes);

}  // namespace gpucheck
