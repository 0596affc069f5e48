// One GPU that stands off its siblings: the same model on the same node
// should show the same power limit, clocks, link and memory, and about the
// same temperature and error counts. A node-wide threshold misses one bad
// GPU in eight; a comparison with the node's own median does not.
#pragma once

#include <vector>

#include "facts/facts.hpp"
#include "rules/finding.hpp"

namespace gpucheck {

// A warning (category hardware-health, rule gpu-outlier-<what>) for each GPU
// and quantity more than its margin (docs/check-output.md, Outliers) off the
// median of the GPUs of its model, among three or more of them.
std::vector<Finding> outlier_findings(const Facts& facts);

}  // namespace gpucheck
