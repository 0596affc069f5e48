// What `check`, `verify` and `kernels` hand to the formats made for other
// programs (JUnit, Prometheus, Node Feature Discovery, Markdown;
// docs/output-formats.md): the verdict, the findings, the checks that ran
// with their own pass or fail, and the facts they were judged on.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "facts/facts.hpp"
#include "matrix/matrix.hpp"
#include "rules/finding.hpp"
#include "rules/outcome.hpp"
#include "util/dates.hpp"

namespace gpucheck {

// A check with its own outcome: the verdict of the run, one kernel check
// on one GPU, one bandwidth check.
struct CheckOutcome {
  enum class Status { passed, failed, skipped };
  std::string group;   // what it belongs to: "gpucheck check", "GPU 0 (NVIDIA H100 80GB HBM3)"
  std::string name;    // "verdict", "bf16", "device_copy"
  Status status = Status::passed;
  std::string detail;  // why it failed or was skipped, or what it measured
  std::vector<std::pair<std::string, std::string>> properties;  // measured values: ("tflops", "756.2")
  // For the Prometheus labels: the GPU (CUDA ordinal) and the kind of check.
  std::string gpu;     // "0"; empty: not about one GPU
  std::string kind;    // "verdict", "precision", "bandwidth", "sustained", "p2p", "gpu", "kernels"
};
std::string_view to_string(CheckOutcome::Status s);

struct RunReport {
  std::string command;   // "check", "verify", "kernels"
  std::string version;   // gpucheck's own
  std::string source;    // "this host", "--root DIR", "--from FILE (format)", "lock gpucheck.lock"
  const Facts* facts = nullptr;     // what was judged (the stack summary, the NFD labels)
  const Matrix* matrix = nullptr;   // what it was judged by; none: no matrix at hand
  std::optional<Day> today;         // the day the matrix's age is judged on
  std::int64_t time = 0;            // the run, in seconds since 1970 (UTC)
  bool strict = false;              // warnings fail
  Outcome outcome = Outcome::pass;  // the verdict (docs/exit-codes.md)
  std::vector<Finding> findings;
  std::vector<CheckOutcome> checks;
  std::vector<NotShown> not_shown;  // what a paste lacks: why it is incomplete
  std::int64_t labels_expire = 0;   // nfd: when its labels lapse, seconds since 1970; 0: never
  bool failed() const { return outcome == Outcome::fail; }
};

// The kernel checks as outcomes: per GPU, each precision, bandwidth and
// sustained check; a GPU waived or failed as a whole; nothing run at all.
// An expected check that did not pass fails; one not expected, not
// implemented or not reached is skipped (its reason as the detail).
std::vector<CheckOutcome> kernel_outcomes(const KernelFacts& k);

// The run's own verdict as a check, so that a report with no finding still
// has one test case, and a failing run always has a failure.
CheckOutcome verdict_outcome(const RunReport& r);


}  // namespace gpucheck
