// Kernel checks and the verdict as outcomes, for every machine format (run_report.hpp).
#include "report/run_report.hpp"

#include <cstdio>

#include "util/strings.hpp"

namespace gpucheck {

namespace {

std::string number(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

void add(CheckOutcome& o, const char* name, const std::optional<double>& v, int digits) {
  if (v) o.properties.emplace_back(name, number(*v, digits));
}

std::string gpu_label(const GpuKernelFacts& g) {
  std::string s = g.ordinal ? "GPU " + std::to_string(*g.ordinal) : std::string("GPU");
  if (g.name) s += " (" + *g.name + ")";
  return s;
}

CheckOutcome precision_outcome(const GpuKernelFacts& g, const KernelCheck& c) {
  CheckOutcome o{gpu_label(g), c.precision, CheckOutcome::Status::passed, {}, {}, g.ordinal ? std::to_string(*g.ordinal) : "", "precision"};
  if (c.status == StepStatus::passed) {
    o.status = CheckOutcome::Status::passed;
  } else if (judged(c)) {
    o.status = CheckOutcome::Status::failed;
  } else {
    o.status = CheckOutcome::Status::skipped;
  }
  o.detail = std::string(to_string(c.status));
  if (c.reason) o.detail += ": " + *c.reason;
  else if (c.jit_error) o.detail += ": " + *c.jit_error;
  else if (c.launch_error) o.detail += ": " + *c.launch_error;
  else if (c.first_mismatch) o.detail += ": " + *c.first_mismatch;
  o.properties.emplace_back("expected", c.expected ? "yes" : "no");
  add(o, "tflops", c.tflops, 1);
  add(o, "datasheet_tflops", c.datasheet_tflops, 1);
  add(o, "ratio", c.ratio, 2);
  return o;
}

CheckOutcome peer_outcome(const PeerCopy& p) {
  const std::string to = std::to_string(p.dst_ordinal);
  CheckOutcome o{"GPU " + std::to_string(p.src_ordinal), "p2p to GPU " + to, CheckOutcome::Status::failed,
                 std::string(to_string(p.status)), {}, std::to_string(p.src_ordinal), "p2p"};
  if (p.status == StepStatus::passed) o.status = CheckOutcome::Status::passed;
  if (p.status == StepStatus::skipped) o.status = CheckOutcome::Status::skipped;
  if (p.reason) o.detail += ": " + *p.reason;
  o.properties.emplace_back("to", to);
  add(o, "gbs", p.gbs, 1);
  add(o, "expected_gbs", p.expected_gbs, 1);
  add(o, "ratio", p.ratio, 2);
  return o;
}

CheckOutcome bandwidth_outcome(const GpuKernelFacts& g, const BandwidthCheck& b) {
  CheckOutcome o{gpu_label(g), b.kind, CheckOutcome::Status::failed, std::string(to_string(b.status)), {},
                 g.ordinal ? std::to_string(*g.ordinal) : "", "bandwidth"};
  if (b.status == StepStatus::passed) o.status = CheckOutcome::Status::passed;
  if (b.status == StepStatus::skipped) o.status = CheckOutcome::Status::skipped;
  if (b.reason) o.detail += ": " + *b.reason;
  add(o, "gbs", b.gbs, 1);
  add(o, "expected_gbs", b.expected_gbs, 1);
  add(o, "ratio", b.ratio, 2);
  return o;
}

}  // namespace

std::string_view to_string(CheckOutcome::Status s) {
  switch (s) {
    case CheckOutcome::Status::passed: return "passed";
    case CheckOutcome::Status::failed: return "failed";
    case CheckOutcome::Status::skipped: return "skipped";
  }
  return "failed";
}

std::vector<CheckOutcome> kernel_outcomes(const KernelFacts& k) {
  std::vector<CheckOutcome> out;
  if (k.error || k.gpus.empty())
    out.push_back({"kernel checks", "run", CheckOutcome::Status::failed,
                   k.error.value_or("no GPU to run the kernel checks on"), {}, "", "kernels"});
  for (const auto& g : k.gpus) {
    const std::string ordinal = g.ordinal ? std::to_string(*g.ordinal) : "";
    if (g.status != GpuRunStatus::ran)
      out.push_back({gpu_label(g), "run", g.status == GpuRunStatus::waived ? CheckOutcome::Status::skipped : CheckOutcome::Status::failed,
                     std::string(to_string(g.status)) + ": " + g.reason.value_or(""), {}, ordinal, "gpu"});
    if (g.status == GpuRunStatus::waived) continue;  // as kernels_exit_code: a waived GPU's steps are not judged
    for (const auto& c : g.checks) out.push_back(precision_outcome(g, c));
    for (const auto& b : g.bandwidth) out.push_back(bandwidth_outcome(g, b));
    if (const auto& s = g.sustained) {
      CheckOutcome o{gpu_label(g), "sustained " + s->precision, CheckOutcome::Status::failed,
                     std::string(to_string(s->status)) + (s->reason ? ": " + *s->reason : ""), {}, ordinal, "sustained"};
      if (s->status == StepStatus::ran) o.status = CheckOutcome::Status::passed;
      if (s->status == StepStatus::skipped) o.status = CheckOutcome::Status::skipped;
      o.properties.emplace_back("duration_s", number(s->duration_s, 1));
      out.push_back(std::move(o));
    }
  }
  for (const auto& p : k.peer_copies) out.push_back(peer_outcome(p));
  return out;
}

CheckOutcome verdict_outcome(const RunReport& r) {
  const int errors = count(r.findings, Severity::error), warnings = count(r.findings, Severity::warning);
  std::string detail = std::to_string(errors) + (errors == 1 ? " error, " : " errors, ") + std::to_string(warnings) +
                       (warnings == 1 ? " warning" : " warnings") + (r.strict ? " (--strict: warnings fail)" : "");
  if (r.outcome == Outcome::incomplete) {
    std::vector<std::string> missing;
    for (const auto& n : r.not_shown) missing.push_back(n.what + " (ask for " + n.ask_for + ")");
    detail += "; the report does not show " + join(missing, "; ");
  }
  const auto status = r.outcome == Outcome::pass   ? CheckOutcome::Status::passed
                      : r.outcome == Outcome::fail ? CheckOutcome::Status::failed
                                                   : CheckOutcome::Status::skipped;
  return {"gpucheck " + r.command, "verdict", status, std::string(to_string(r.outcome)) + ": " + detail, {}, "", "verdict"};
}

}  // namespace gpucheck
