#include "rules/verdict.hpp"

#include <algorithm>
#include <cstdio>

#include "matrix/precisions.hpp"
#include "rules/engine.hpp"
#include "rules/fact_view.hpp"
#include "rules/matrix_age.hpp"
#include "rules/outliers.hpp"
#include "rules/paste_coverage.hpp"
#include "rules/report_conflicts.hpp"
#include "rules/unverified.hpp"
#include "util/strings.hpp"

namespace gpucheck {

namespace {

Rule requirement(std::string id, std::string category, Severity sev, Scope scope, std::string title, Condition when,
                 std::string message, std::string fix) {
  Rule r;
  r.id = std::move(id);
  r.category = std::move(category);
  r.severity = sev;
  r.scope = scope;
  r.title = std::move(title);
  r.when = std::move(when);
  r.message = std::move(message);
  r.fix = std::move(fix);
  r.defined_in = "command line";
  return r;
}

std::string number_text(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

}  // namespace

const std::vector<std::string>& precision_names() { return requirable_precisions(); }

std::string LaunchRequirements::text() const {
  std::vector<std::string> parts;
  if (!precisions.empty()) parts.push_back("--require " + join(precisions, ","));
  if (min_compute) parts.push_back("--min-compute " + *min_compute);
  if (min_memory) parts.push_back("--min-memory " + min_memory->text());
  if (gpus) parts.push_back("--gpus " + std::to_string(*gpus));
  return join(parts, " ");
}

std::vector<Rule> requirement_rules(const LaunchRequirements& req) {
  std::vector<Rule> out;
  const auto nvidia = compare_condition("gpu.vendor", Op::eq, {"nvidia"});
  for (auto& p : req.precisions) {
    out.push_back(requirement("require-" + p, "precision-unsupported", Severity::error, Scope::gpu, "Required precision " + p + " missing",
                              all_of({nvidia, compare_condition("gpu.precisions", Op::not_contains, {p})}),
                              "{gpu.name} (compute capability {gpu.compute_capability}, {gpu.architecture}) has no " + p +
                                  " in hardware; the job requires it (--require " + p + ")",
                              "Run the job on GPUs whose architecture has " + p + ", or drop it from the job's precisions"));
    out.push_back(requirement("require-" + p + "-unknown", "precision-unsupported", Severity::warning, Scope::gpu,
                              "Required precision " + p + " not confirmed",
                              all_of({compare_condition("gpu.address", Op::present), compare_condition("gpu.precisions", Op::absent)}),
                              "gpucheck cannot tell whether {gpu.name} has " + p + ": its architecture is not in the matrix",
                              "Check the GPU's datasheet; report the model so the matrix can learn it"));
  }
  if (req.min_compute) {
    const auto& cc = *req.min_compute;
    out.push_back(requirement("require-min-compute", "arch-unsupported", Severity::error, Scope::gpu, "GPU below the required compute capability",
                              all_of({nvidia, compare_condition("gpu.compute_capability", Op::lt, {cc})}),
                              "{gpu.name} has compute capability {gpu.compute_capability}; the job requires " + cc + " or newer (--min-compute)",
                              "Schedule the job on GPUs of compute capability " + cc + " or newer"));
    out.push_back(requirement("require-min-compute-unknown", "unverified", Severity::error, Scope::gpu,
                              "Compute capability not read",
                              all_of({nvidia, compare_condition("gpu.compute_capability", Op::absent)}),
                              "Not verified: the compute capability of {gpu.name} (the job requires " + cc +
                                  " or newer, --min-compute): the CUDA driver API did not give it and the matrix does not "
                                  "know the model",
                              "Run gpucheck check on the node, where the CUDA driver API reads it (a finding or note says why "
                              "it did not here)"));
  }
  if (req.min_memory) {
    const auto& m = *req.min_memory;
    const auto amount = number_text(m.amount);
    // A GPU sold as 80 GB reports 79.6 GiB: G and GB compare the sold size.
    out.push_back(requirement("require-min-memory", "hardware-health", Severity::error, Scope::gpu, "GPU memory below the requirement",
                              compare_condition(m.binary ? "gpu.memory_gib" : "gpu.memory_sold_gb", Op::lt, {amount}),
                              m.binary ? "{gpu.name} reports {gpu.memory_gib} GiB; the job requires " + m.text() + " (--min-memory)"
                                       : "{gpu.name} is sold with {gpu.memory_sold_gb} GB (it reports {gpu.memory_gib} GiB); the job "
                                         "requires " + m.text() + " (--min-memory)",
                              "Schedule the job on GPUs with at least " + m.text()));
    out.push_back(requirement("require-min-memory-unknown", "unverified", Severity::error, Scope::gpu, "GPU memory not read",
                              all_of({compare_condition("gpu.address", Op::present),
                                      compare_condition(m.binary ? "gpu.memory_gib" : "gpu.memory_sold_gb", Op::absent)}),
                              "Not verified: the memory of {gpu.name} (the job requires " + m.text() +
                                  ", --min-memory): no source gave its size",
                              "Run gpucheck check on the node, where nvidia-smi, NVML or the CUDA driver API reads it (a "
                              "finding or note says why none did here)"));
  }
  if (req.gpus) {
    const auto n = std::to_string(*req.gpus);
    out.push_back(requirement("require-gpus", "visible-devices", Severity::error, Scope::host, "Fewer GPUs than required",
                              all_of({compare_condition("gpu.usable_count", Op::lt, {n}), compare_condition("gpu.usable_count", Op::gt, {"0"})}),
                              "A job here can use {gpu.usable_count} GPU(s) ({gpu.count} on the host); it requires " + n + " (--gpus)",
                              "Check that every GPU is seen by the driver (nvidia-smi -L) and not hidden by CUDA_VISIBLE_DEVICES "
                              "or the container's GPU assignment"));
  }
  // None at all: every requirement fails at once, and why is the finding.
  if (req.any())
    out.push_back(requirement("require-gpu", "visible-devices", Severity::error, Scope::host, "No GPU for the job's requirements",
                              all_of({compare_condition("gpu.usable_count", Op::eq, {"0"}),
                                      any_of({compare_condition("driver.present", Op::absent),
                                              compare_condition("driver.present", Op::eq, {"false"})})}),
                              "The job requires " + req.text() + ", but no GPU here can run it: {gpu.hidden_cause}",
                              "Run the check where the job runs, on a node (or in a container) given its GPUs"));
  return out;
}

int Verdict::count(Severity s) const { return gpucheck::count(findings, s); }

bool Verdict::fails(bool strict) const {
  return count(Severity::error) > 0 || (strict && count(Severity::warning) > 0);
}

Outcome Verdict::outcome(bool strict) const {
  if (fails(strict)) return Outcome::fail;
  return not_shown.empty() ? Outcome::pass : Outcome::incomplete;
}

std::string_view to_string(Outcome o) {
  switch (o) {
    case Outcome::pass: return "pass";
    case Outcome::fail: return "fail";
    case Outcome::incomplete: return "incomplete";
  }
  return "fail";
}

std::string upper(Outcome o) {
  std::string s(to_string(o));
  for (auto& c : s) c = static_cast<char>(c - 'a' + 'A');
  return s;
}

std::string verdict_summary(const Verdict& v) {
  const int e = v.count(Severity::error), w = v.count(Severity::warning);
  auto n = [](int k, const char* word) { return std::to_string(k) + " " + word + (k == 1 ? "" : "s"); };
  return (e ? "fail: " : "pass: ") + n(e, "error") + ", " + n(w, "warning");
}

Verdict judge(const Facts& facts, const Knowledge& knowledge, const LaunchRequirements& req, std::optional<Day> today) {
  const auto subjects = build_subjects(facts, knowledge.matrix, today);
  std::vector<Rule> rules = knowledge.rules;
  auto extra = requirement_rules(req);
  rules.insert(rules.end(), extra.begin(), extra.end());
  Verdict v{evaluate_rules(rules, subjects), {}};
  auto unproven = unverified_findings(facts, req.gpus.value_or(0), req.precisions, v.findings);
  v.findings.insert(v.findings.end(), unproven.begin(), unproven.end());
  auto outliers = outlier_findings(facts);
  v.findings.insert(v.findings.end(), outliers.begin(), outliers.end());
  auto conflicts = report_conflict_findings(facts);
  v.findings.insert(v.findings.end(), conflicts.begin(), conflicts.end());
  if (today)
    if (auto age = matrix_age_finding(knowledge.matrix, *today)) v.findings.push_back(std::move(*age));
  sort_findings(v.findings);
  v.not_shown = not_shown_by(facts);
  return v;
}

}  // namespace gpucheck
