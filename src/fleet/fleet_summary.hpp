// A fleet's reports folded into what differs: which nodes fail each finding,
// and for each skew field the majority value and the nodes that stand off it.
// Linear in nodes (hash maps keyed by value), so 10,000 nodes cost little
// beyond reading them.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "fleet/node_report.hpp"

namespace gpucheck {

// One report as collected: the node's name (the file's name) and what it said.
struct FleetEntry {
  std::string node;
  Result<NodeReport> report;
};

struct FleetFinding {
  std::string rule, title, severity;  // severity: error or warning
  std::vector<std::string> nodes;     // sorted
};

struct SkewGroup {
  std::string value;
  std::vector<std::string> nodes;  // sorted
};

struct FieldSkew {
  SkewField field;
  std::optional<SkewGroup> majority;  // absent: no node shows the field
  bool tie = false;                   // another value has as many nodes (the majority is the first by text)
  std::vector<SkewGroup> others;      // larger groups first, then by value
  std::vector<std::string> unknown;   // nodes whose report does not show it, sorted
  bool skewed() const { return !others.empty(); }
};

struct UnreadableReport {
  std::string node, reason;
};

struct FleetSummary {
  std::size_t reports = 0;
  std::size_t passed = 0, failed = 0, probe_only = 0;  // check reports passing, failing; probe reports (no verdict)
  std::vector<std::string> failing_nodes;              // sorted
  std::vector<FleetFinding> findings;                  // errors first, then more nodes first, then by rule id
  std::array<FieldSkew, kSkewFieldCount> skew;         // in kSkewFields order
  std::vector<UnreadableReport> unreadable;            // by node
  // Exit 1 (docs/exit-codes.md): a node whose check failed, or a report that
  // could not be read (that node is not proven).
  bool fails() const { return failed > 0 || !unreadable.empty(); }
};

FleetSummary summarize_fleet(const std::vector<FleetEntry>& entries);

}  // namespace gpucheck
