#include "lock/fleet.hpp"

#include <algorithm>
#include <map>


namespace gpucheck {

namespace {

// compare_lock's evidence: [found, pinned, policy], each naming the field.
std::string describe(const Finding& f) {
  if (f.evidence.size() < 3) return f.message;
  return f.evidence[0].fact + ": pinned " + f.evidence[1].value + ", found " + f.evidence[0].value + " (" +
         f.evidence[2].value + ")";
}

}  // namespace

std::vector<DriftGroup> group_by_drift(const std::vector<FleetNode>& nodes) {
  std::map<std::vector<std::string>, DriftGroup> by_drift;
  std::map<std::string, DriftGroup> unreadable;
  for (const auto& n : nodes) {
    if (n.problem) {
      auto& g = unreadable[n.problem->detail];
      g.unreadable = n.problem->detail;
      g.nodes.push_back(n.name);
      continue;
    }
    std::vector<std::string> key;
    for (const auto& f : n.findings)
      if (f.severity == Severity::error) key.push_back(describe(f));
    std::sort(key.begin(), key.end());
    auto& g = by_drift[key];
    g.drifts = key;
    g.nodes.push_back(n.name);
  }
  std::vector<DriftGroup> out;
  for (auto& [k, g] : by_drift) out.push_back(std::move(g));
  std::stable_sort(out.begin(), out.end(), [](const DriftGroup& a, const DriftGroup& b) {
    if (a.drifts.empty() != b.drifts.empty()) return a.drifts.empty();
    return a.nodes.size() > b.nodes.size();
  });
  for (auto& [k, g] : unreadable) out.push_back(std::move(g));
  for (auto& g : out) std::sort(g.nodes.begin(), g.nodes.end());
  return out;
}

}  // namespace gpucheck
