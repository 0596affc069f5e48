#include "report/verify_report.hpp"

#include "util/strings.hpp"

namespace gpucheck {

std::string render_verify(const std::string& lock_name, const std::vector<Finding>& findings) {
  if (findings.empty()) return "verify " + lock_name + ": no drift\n";
  const int errors = count(findings, Severity::error);
  std::string out = "verify " + lock_name + ": " + std::to_string(errors) + (errors == 1 ? " drift" : " drifts") +
                    " breaking the lock, " + std::to_string(findings.size() - static_cast<std::size_t>(errors)) +
                    " within policy\n";
  for (const auto& f : findings) {
    out += std::string("  ") + (f.severity == Severity::error ? "error" : "info ") + "  [" + f.rule + "] " + f.message + "\n";
    if (!f.evidence.empty()) out += "         found in: " + f.evidence.front().source + "\n";
    if (!f.fix.empty()) out += "         fix: " + f.fix + "\n";
  }
  return out;
}

std::string render_fleet(const std::vector<DriftGroup>& groups, std::size_t total, const std::string& lock_name) {
  std::size_t drifted = 0, bad = 0;
  for (const auto& g : groups) {
    if (g.unreadable) bad += g.nodes.size();
    else if (!g.drifts.empty()) drifted += g.nodes.size();
  }
  std::string out = "verify: " + std::to_string(total) + (total == 1 ? " report" : " reports") + " against " + lock_name + ": " +
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
