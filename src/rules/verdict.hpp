// `gpucheck check`'s verdict: the matrix's rules and a launcher's own
// requirements, evaluated over the facts.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "facts/facts.hpp"
#include "rules/finding.hpp"
#include "rules/knowledge.hpp"
#include "rules/outcome.hpp"
#include "util/dates.hpp"
#include "util/memory_size.hpp"

namespace gpucheck {

// What a job launcher demands of the node (--require, --min-compute,
// --min-memory, --gpus). Not knowledge, so built here, not read from the matrix.
struct LaunchRequirements {
  std::vector<std::string> precisions;          // "bf16", "fp8"
  std::optional<std::string> min_compute;       // "8.0"
  std::optional<MemorySize> min_memory;         // "80G": as sold; "80GiB": as reported
  std::optional<int> gpus;
  bool any() const { return !precisions.empty() || min_compute || min_memory || gpus; }
  std::string text() const;  // "--require bf16,fp8 --min-compute 9.0 --min-memory 80 GB --gpus 8"
};

// The precision names --require accepts.
const std::vector<std::string>& precision_names();

std::vector<Rule> requirement_rules(const LaunchRequirements& req);

struct Verdict {
  std::vector<Finding> findings;
  std::vector<NotShown> not_shown;  // a paste's gaps (rules/paste_coverage.hpp)
  int count(Severity s) const;
  // Exit code 1: an error, or a warning when strict.
  bool fails(bool strict) const;
  // fail when it fails; else incomplete when a paste lacks what a verdict needs.
  Outcome outcome(bool strict) const;
};

// `today`: the day the matrix's age is judged on (none: not judged).
Verdict judge(const Facts& facts, const Knowledge& knowledge, const LaunchRequirements& req, std::optional<Day> today);

// "pass", or "fail: 2 errors, 1 warning": what a lockfile records of `check`.
std::string verdict_summary(const Verdict& v);

}  // namespace gpucheck
