// A paste that states one fact twice with different values (its nvidia-smi
// says driver 550.54, its collect_env 550.90): two machines, two moments,
// or parts of one driver that disagree. Not a parse error: a finding that
// names both values and their lines, so the reader asks which is true.
#pragma once

#include <vector>

#include "facts/facts.hpp"
#include "rules/finding.hpp"

namespace gpucheck {

// One warning per conflict in facts.report (none for a probed host): rule
// report-values-disagree, category driver-mismatch for the driver's
// versions, report-conflict for any other fact.
std::vector<Finding> report_conflict_findings(const Facts& facts);

}  // namespace gpucheck
