// One node's report, as `gpucheck fleet` needs it: the stack fields whose
// skew across nodes makes collective jobs hang or slow, and (from a `check
// --json` report) the verdict and findings. Everything else in the report
// is skipped, not parsed (docs/fleet.md).
#pragma once

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "fleet/skew_fields.hpp"
#include "util/result.hpp"

namespace gpucheck {

enum class NodeKind {
  check,  // `gpucheck check --json` (gpucheck.check/1): a verdict, findings and facts
  probe,  // `gpucheck probe --json` (gpucheck.facts/1): facts only
};

struct NodeFinding {
  std::string rule;      // the rule's id
  std::string title;
  std::string severity;  // "error" or "warning"; info findings are not kept
};

struct NodeReport {
  NodeKind kind = NodeKind::probe;
  bool failed = false;  // a check report whose verdict is fail
  std::vector<NodeFinding> findings;
  // Indexed by SkewField; absent: the report does not show it.
  std::array<std::optional<std::string>, kSkewFieldCount> fields;
};

// Reads a report from its bytes. `text` is taken by value: the reader pads
// it in place for the parser (a move in, no copy of the report). Errors (Reason::malformed, where =
// `name`): not JSON (the parser's reason), not a gpucheck check or probe
// report, a field of the wrong type (with its JSON path).
Result<NodeReport> read_node_report(std::string text, const std::string& name);

}  // namespace gpucheck
