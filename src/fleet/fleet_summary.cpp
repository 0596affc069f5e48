#include "fleet/fleet_summary.hpp"

#include <algorithm>
#include <map>
#include <unordered_map>

namespace gpucheck {

namespace {

FieldSkew skew_of(SkewField field, const std::vector<const FleetEntry*>& read) {
  FieldSkew out{field, std::nullopt, false, {}, {}};
  std::unordered_map<std::string_view, std::size_t> index;  // value -> groups[i]
  std::vector<SkewGroup> groups;
  for (const FleetEntry* e : read) {
    const auto& v = e->report->fields[index_of(field)];
    if (!v) {
      out.unknown.push_back(e->node);
      continue;
    }
    auto [it, fresh] = index.try_emplace(*v, groups.size());
    if (fresh) groups.push_back({*v, {}});
    groups[it->second].nodes.push_back(e->node);
  }
  // `index` views the reports' strings; the groups own copies, so sorting them is safe.
  std::sort(groups.begin(), groups.end(), [](const SkewGroup& a, const SkewGroup& b) {
    if (a.nodes.size() != b.nodes.size()) return a.nodes.size() > b.nodes.size();
    return a.value < b.value;
  });
  for (auto& g : groups) std::sort(g.nodes.begin(), g.nodes.end());
  std::sort(out.unknown.begin(), out.unknown.end());
  if (groups.empty()) return out;
  out.tie = groups.size() > 1 && groups[1].nodes.size() == groups[0].nodes.size();
  out.majority = std::move(groups.front());
  out.others.assign(std::make_move_iterator(groups.begin() + 1), std::make_move_iterator(groups.end()));
  return out;
}

std::vector<FleetFinding> findings_of(const std::vector<const FleetEntry*>& read) {
  std::map<std::string, FleetFinding> by_rule;
  for (const FleetEntry* e : read) {
    for (const auto& f : e->report->findings) {
      auto& g = by_rule[f.rule];
      if (g.rule.empty()) g = {f.rule, f.title, f.severity, {}};
      if (f.severity == "error") g.severity = "error";  // a rule that is an error on any node reads as one
      // A rule fires once per subject (each GPU, each environment): a node once.
      if (g.nodes.empty() || g.nodes.back() != e->node) g.nodes.push_back(e->node);
    }
  }
  std::vector<FleetFinding> out;
  for (auto& [rule, g] : by_rule) {
    std::sort(g.nodes.begin(), g.nodes.end());
    g.nodes.erase(std::unique(g.nodes.begin(), g.nodes.end()), g.nodes.end());
    out.push_back(std::move(g));
  }
  std::stable_sort(out.begin(), out.end(), [](const FleetFinding& a, const FleetFinding& b) {
    if ((a.severity == "error") != (b.severity == "error")) return a.severity == "error";
    return a.nodes.size() > b.nodes.size();
  });
  return out;
}

}  // namespace

FleetSummary summarize_fleet(const std::vector<FleetEntry>& entries) {
  FleetSummary s;
  s.reports = entries.size();
  std::vector<const FleetEntry*> read;
  read.reserve(entries.size());
  for (const auto& e : entries) {
    if (!e.report) {
      s.unreadable.push_back({e.node, e.report.problem().detail});
      continue;
    }
    read.push_back(&e);
    if (e.report->kind == NodeKind::probe) ++s.probe_only;
    else if (e.report->failed) {
      ++s.failed;
      s.failing_nodes.push_back(e.node);
    } else ++s.passed;
  }
  std::sort(s.failing_nodes.begin(), s.failing_nodes.end());
  std::sort(s.unreadable.begin(), s.unreadable.end(), [](auto& a, auto& b) { return a.node < b.node; });
  s.findings = findings_of(read);
  for (std::size_t i = 0; i < kSkewFieldCount; ++i) s.skew[i] = skew_of(kSkewFields[i].field, read);
  return s;
}

}  // namespace gpucheck
