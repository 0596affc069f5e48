#include "rules/unverified.hpp"

#include <algorithm>
#include <string_view>
#include <utility>

#include "facts/gpu_host.hpp"
#include "matrix/precisions.hpp"
#include "rules/verdict_basis.hpp"
#include "util/strings.hpp"

namespace gpucheck {
namespace {

// What the run knows of the host and the request, for each row.
struct Context {
  const Facts& facts;
  GpuHostEvidence host;
  int expected_gpus;
  const std::vector<std::string>& required;
  bool driver_explained;  // a driver-missing or driver-mismatch error already says why the driver's voices failed
};

bool applies(AppliesTo a, const Context& c) {
  // A paste is judged on what it shows (importers/): no probe of this host
  // ran, so nothing of it went unread. A host no source shows a GPU on,
  // asked for GPUs, fails by require-gpu, not for what it could not read.
  if (c.facts.from_report && (a == AppliesTo::nvidia_host || a == AppliesTo::amd_host || a == AppliesTo::gpu_host)) return false;
  switch (a) {
    case AppliesTo::nvidia_host: return c.host.nvidia_host();
    case AppliesTo::amd_host: return c.host.amd_host();
    case AppliesTo::gpu_host: return c.host.any();
    case AppliesTo::gpus_asked: return c.expected_gpus > 0;
    case AppliesTo::kernels_asked: return c.facts.kernels.has_value();
    case AppliesTo::precisions_asked: return c.facts.kernels.has_value() && !c.required.empty();
  }
  return false;
}

std::vector<const Note*> notes_of(const Facts& f, std::string_view subject) {
  std::vector<const Note*> out;
  for (auto& n : f.notes)
    if (n.subject == subject) out.push_back(&n);
  return out;
}

// How a reason counts against a row. --level 1 skips every program and
// driver call by design: what it skipped is listed, not failed. A driver
// already found missing or mismatched explains why its voices did not
// answer (a snapshot of such a host need not hold the answers either); a
// hang it does not explain.
Missing outcome(const BasisRow& row, Reason r, const Context& c) {
  if (r == Reason::skipped) return Missing::listed;
  if (c.driver_explained && r != Reason::timed_out) return Missing::listed;
  return r == Reason::absent ? row.absent : row.failed;
}

// The row gives the fix and the action; timeouts of any probe share one.
Finding unverified_finding(const BasisRow& row, std::string rule, Missing m, std::string title, std::string message,
                           Evidence evidence) {
  Finding f;
  f.rule = std::move(rule);
  f.category = "unverified";
  f.severity = m == Missing::error ? Severity::error : Severity::warning;
  f.scope = "host";
  f.title = std::move(title);
  f.message = std::move(message);
  f.evidence.push_back(std::move(evidence));
  f.fix = std::string(row.fix);
  f.action = row.action;
  return f;
}

// One finding for a row whose notes say its fact was not read, naming every
// such note; the most severe note (the first of equals) gives the severity
// and the title.
void from_notes(const BasisRow& row, const std::vector<const Note*>& notes, const Context& c, std::vector<Finding>& out) {
  Missing worst = Missing::listed;
  const Note* cause = nullptr;
  std::vector<std::string> details;
  for (const Note* n : notes) {
    const Missing m = outcome(row, n->problem.reason, c);
    if (m == Missing::listed) continue;
    details.push_back(n->item + ": " + n->problem.detail);
    if (!cause || m < worst) worst = m, cause = n;
  }
  if (!cause) return;
  const Reason r = cause->problem.reason;
  const std::string subject = std::string(row.rule.substr(std::string_view("unverified-").size()));
  out.push_back(unverified_finding(row, std::string(row.rule), worst,
                                   subject + (r == Reason::timed_out      ? " did not answer in time"
                                              : r == Reason::not_recorded ? " has no recorded answer"
                                              : r == Reason::absent       ? " is not there"
                                                                          : " could not answer"),
                                   "Not verified: " + std::string(row.fact) + ". " + join(details, "; "),
                                   Evidence{"notes." + cause->subject, std::string(to_string(cause->problem.reason)), cause->problem.where}));
}

void cuda_driver_api(const BasisRow& row, const Context& c, std::vector<Finding>& out) {
  // A cuInit error code is the matrix's to judge (cuda-init-failed and the
  // rest), as are the entry points an old driver lacks.
  std::vector<const Note*> notes;
  for (const Note* n : notes_of(c.facts, "cuda_driver_api"))
    if (n->item == "CUDA driver" || starts_with(n->item, "device ")) notes.push_back(n);
  from_notes(row, notes, c, out);
}

// nvidia-smi, else NVML: unread only when neither answered.
// A container whose NVIDIA_DRIVER_CAPABILITIES lacks `utility` is given
// neither: the runtime mounts nvidia-smi and NVML only with it.
void driver_health(const BasisRow& row, const Context& c, std::vector<Finding>& out) {
  if (c.facts.nvidia_smi) return;
  auto notes = notes_of(c.facts, "nvidia_smi");
  for (const Note* n : notes_of(c.facts, "nvml")) notes.push_back(n);
  const std::size_t before = out.size();
  from_notes(row, notes, c, out);
  const auto& env = c.facts.software.gpu_env;
  const auto caps = env.find("NVIDIA_DRIVER_CAPABILITIES");
  if (out.size() == before || caps == env.end()) return;
  for (std::string_view w : split(caps->second, ','))
    if (trim(w) == "utility" || trim(w) == "all") return;
  out.back().message += ". NVIDIA_DRIVER_CAPABILITIES=" + caps->second +
                        " lacks utility, so the container runtime mounted neither nvidia-smi nor NVML";
  out.back().fix = "Start the container with NVIDIA_DRIVER_CAPABILITIES including utility (compute,utility, or all)";
  out.back().action = Action::fix_software;
}

void rocm_smi(const BasisRow& row, const Context& c, std::vector<Finding>& out) {
  std::vector<const Note*> notes;
  for (const Note* n : notes_of(c.facts, "rocm"))
    if (n->item == "ROCm SMI") notes.push_back(n);
  from_notes(row, notes, c, out);
}

void kernel_log(const BasisRow& row, const Context& c, std::vector<Finding>& out) {
  from_notes(row, notes_of(c.facts, "kernel_log"), c, out);
}

// Unread CUDA driver API already names the count among what it did not read.
void gpu_count(const BasisRow& row, const Context& c, std::vector<Finding>& out) {
  const UsableGpus usable = usable_gpus(c.facts);
  if (usable.count) return;
  if (std::any_of(out.begin(), out.end(), [](const Finding& f) { return f.rule == "unverified-cuda_driver_api" && f.severity == Severity::error; }))
    return;
  out.push_back(unverified_finding(row, std::string(row.rule), row.failed, "GPU count could not be verified",
                                   "Not verified: " + std::string(row.fact) + " (--gpus " + std::to_string(c.expected_gpus) +
                                       "): " + usable.why,
                                   Evidence{"gpu.usable_count", "unknown", usable.why}));
}

// What hung anywhere else: the rows above name their own probes' hangs.
void other_timeouts(const BasisRow& row, const Context& c, std::vector<Finding>& out) {
  for (auto& n : c.facts.notes) {
    if (n.problem.reason != Reason::timed_out) continue;
    if (n.subject == "cuda_driver_api" || n.subject == "nvidia_smi" || n.subject == "nvml" || n.subject == "rocm" ||
        n.subject == "kernel_log")
      continue;
    out.push_back(unverified_finding(row, "unverified-" + n.subject, Missing::error, n.subject + " did not answer in time",
                                     "Not verified: what the " + n.subject + " probe reads. " + n.item + ": " + n.problem.detail,
                                     Evidence{"notes." + n.subject, "timed_out", n.problem.where}));
  }
}

// Statuses in which a check reached a verdict on the GPU: it ran, right or wrong.
bool ran_to_verdict(const KernelCheck& k) { return k.status == StepStatus::passed || k.status == StepStatus::failed; }

Finding kernels_not_run(const BasisRow& row, std::string rule, const std::string& message, const std::string& source) {
  return unverified_finding(row, std::move(rule), row.failed, "Kernel checks asked for did not run", message,
                            Evidence{"kernels", "not run", source});
}

bool kernels_ran(const KernelFacts& k) { return !k.error && !k.gpus.empty(); }

void kernels(const BasisRow& row, const Context& c, std::vector<Finding>& out) {
  const auto& k = *c.facts.kernels;
  if (kernels_ran(k)) return;
  out.push_back(kernels_not_run(row, std::string(row.rule),
                                "The kernel checks were asked for (--kernels) and did not run: " +
                                    k.error.value_or("no GPU the CUDA driver API could use"),
                                k.library.value_or("the kernel checks")));
}

void required_precisions(const BasisRow& row, const Context& c, std::vector<Finding>& out) {
  const auto& k = *c.facts.kernels;
  if (!kernels_ran(k)) return;  // the row above says so once
  for (const auto& p : c.required) {
    bool tested = false;
    std::string statuses;
    for (const auto& g : k.gpus)
      for (const auto& check : g.checks) {
        if (matrix_precision_of(check.precision) != p) continue;
        tested |= ran_to_verdict(check);
        statuses += (statuses.empty() ? "" : ", ") + check.precision + " " + std::string(to_string(check.status));
      }
    if (!tested)
      out.push_back(kernels_not_run(row, "unverified-kernels-" + p,
                                    "--require " + p + ": no kernel check of " + p + " ran to a result on any GPU (" +
                                        (statuses.empty() ? "none planned" : statuses) + ")",
                                    k.library.value_or("the kernel checks")));
  }
}

using RowJudge = void (*)(const BasisRow&, const Context&, std::vector<Finding>&);

// Each row of verdict_basis() and how its fact is found missing.
// The rows that never make a finding (pci, kernel-module, python) have none.
const std::pair<std::string_view, RowJudge> kJudges[] = {
    {"cuda-driver-api", cuda_driver_api}, {"driver-health", driver_health},  {"rocm-smi", rocm_smi},
    {"kernel-log", kernel_log},           {"gpu-count", gpu_count},          {"timeouts", other_timeouts},
    {"kernels", kernels},                 {"kernels-precision", required_precisions},
};

}  // namespace

std::vector<Finding> unverified_findings(const Facts& facts, int expected_gpus, const std::vector<std::string>& required,
                                         const std::vector<Finding>& known) {
  const Context c{facts, gpu_host_evidence(facts), expected_gpus, required,
                  std::any_of(known.begin(), known.end(), [](const Finding& f) {
                    return f.severity == Severity::error && (f.category == "driver-missing" || f.category == "driver-mismatch");
                  })};
  std::vector<Finding> out;
  for (const auto& [id, judge] : kJudges) {
    const BasisRow& row = basis_row(id);
    if (applies(row.applies, c)) judge(row, c, out);
  }
  return out;
}

}  // namespace gpucheck
