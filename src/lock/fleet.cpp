#include "lock/fleet.hpp"

#include <algorithm>
#include <map>

#include "util/strings.hpp"

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

std::string render_fleet(const std::vector<DriftGroup>& groups, std::size_t total, const std::string& lock_name) {
  std::size_t drifted = 0, bad = 0;
  for (const auto& g : groups) {
    if (g.unreadable) bad += g.nodes.size();
    else if (!g.drifts.empty()) drifted += g.nodes.size();
  }
  std::string out = "verify: " + std::to_string(total) + " reports against " + lock_name + ": " +
                    std::to_string(total - drifted - bad) + " match, " + std::to_string(drifted) + " drifted" +
                    (bad ? ", " + std::to_string(bad) + " unreadable" : "") + "\n";
  for (const auto& g : groups) {
    out += "\n";
    const std::string n = std::to_string(g.nodes.size()) + (g.nodes.size() == 1 ? " node" : " nodes");
    if (g.unreadable) {
      out += n + " unreadable: " + *g.unreadable + "\n";
    } else if (g.drifts.empty()) {
      out += n + ": no drift\n";
      continue;  // the healthy majority: a count is enough
    } else {
      out += n + " with " + std::to_string(g.drifts.size()) + (g.drifts.size() == 1 ? " drift:\n" : " drifts:\n");
      for (const auto& d : g.drifts) out += "  " + d + "\n";
    }
    out += "  nodes: " + join(g.nodes, " ") + "\n";
  }
  return out;
}

}  // namespace gpucheck
