// What `gpucheck verify` prints: one host's drifts from its lock, or a
// fleet's reports grouped by the drift they share.
#pragma once

#include <string>
#include <vector>

#include "lock/fleet.hpp"
#include "rules/finding.hpp"

namespace gpucheck {

// One host: "no drift", or each drift with where it was found and its fix.
std::string render_verify(const std::string& lock_name, const std::vector<Finding>& findings);

// Many: a count line, then each group of nodes with its drifts; the healthy
// majority as a count only.
std::string render_fleet(const std::vector<DriftGroup>& groups, std::size_t total, const std::string& lock_name);

}  // namespace gpucheck
