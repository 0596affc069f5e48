#include "rules/unverified.hpp"

#include <algorithm>
#include <string_view>
#include <utility>

#include "matrix/precisions.hpp"

namespace gpucheck {
namespace {

struct Answerer {
  std::string_view subject, item;  // the note a probe writes when this did not answer ("" item: any)
  const char* what;                // what it would have told
  const char* fix;
};

// The driver's own voices: when one of these failed, the GPUs were not
// asked. Their absence (no driver installed) is the matrix's driver rules'
// business, not this one's.
constexpr Answerer kAnswerers[] = {
    {"cuda_driver_api", "CUDA driver", "the CUDA driver API (cuInit, the devices and their compute capability)",
     "Run nvidia-smi and check the kernel log (dmesg) for NVRM or Xid errors; a hung cuInit usually needs the driver "
     "reloaded or the node rebooted"},
    {"nvidia_smi", "", "nvidia-smi (clocks, throttling, ECC, remapped rows, power, the driver's view of each GPU)",
     "Run nvidia-smi -q by hand; if it hangs or fails, check dmesg for NVRM or Xid errors and the persistence daemon"},
    {"rocm", "ROCm SMI", "ROCm SMI (the AMD GPUs as the driver reports them)",
     "Run rocm-smi by hand and check dmesg for amdgpu errors"},
};

bool has_gpu_on_bus(const Facts& f) {
  return std::any_of(f.pci.begin(), f.pci.end(), [](const PciDevice& d) {
    return d.kind == PciKind::gpu && (d.vendor == PciVendor::nvidia || d.vendor == PciVendor::amd);
  });
}

const Answerer* answerer_for(const Note& n) {
  for (const auto& a : kAnswerers)
    if (n.subject == a.subject && (a.item.empty() || n.item == a.item)) return &a;
  return nullptr;
}

// Every unverified finding is a host-scoped error; only what and why differ.
Finding unverified_error(std::string rule, std::string title, std::string message, Evidence evidence, std::string fix) {
  Finding f;
  f.rule = std::move(rule);
  f.category = "unverified";
  f.severity = Severity::error;
  f.scope = "host";
  f.title = std::move(title);
  f.message = std::move(message);
  f.evidence.push_back(std::move(evidence));
  f.fix = std::move(fix);
  return f;
}

Finding unverified(const Note& n, const std::string& what, const std::string& fix) {
  const bool timed_out = n.problem.reason == Reason::timed_out;
  return unverified_error("unverified-" + n.subject, n.subject + (timed_out ? " did not answer in time" : " could not answer"),
                          "Not verified: " + what + ". " + n.item + ": " + n.problem.detail,
                          Evidence{"notes." + n.subject, std::string(to_string(n.problem.reason)), n.problem.where}, fix);
}

// Statuses in which a check reached a verdict on the GPU: it ran, right or wrong.
bool ran_to_verdict(const KernelCheck& c) { return c.status == StepStatus::passed || c.status == StepStatus::failed; }

Finding kernels_not_run(const std::string& rule, const std::string& message, const std::string& source) {
  return unverified_error(rule, "Kernel checks asked for did not run", message, Evidence{"kernels", "not run", source},
                          "Run gpucheck kernels to see each check's status and reason; check --kernels needs a GPU the "
                          "CUDA driver API can use");
}

void kernel_findings(const KernelFacts& k, const std::vector<std::string>& required, std::vector<Finding>& out) {
  const std::string source = k.library.value_or("the kernel checks");
  if (k.error || k.gpus.empty()) {
    out.push_back(kernels_not_run("unverified-kernels",
                                  "The kernel checks were asked for (--kernels) and did not run: " +
                                      k.error.value_or("no GPU the CUDA driver API could use"),
                                  source));
    return;
  }
  for (const auto& p : required) {
    bool tested = false;
    std::string statuses;
    for (const auto& g : k.gpus)
      for (const auto& c : g.checks) {
        if (matrix_precision_of(c.precision) != p) continue;
        tested |= ran_to_verdict(c);
        statuses += (statuses.empty() ? "" : ", ") + c.precision + " " + std::string(to_string(c.status));
      }
    if (!tested)
      out.push_back(kernels_not_run("unverified-kernels-" + p,
                                    "--require " + p + ": no kernel check of " + p + " ran to a result on any GPU (" +
                                        (statuses.empty() ? "none planned" : statuses) + ")",
                                    source));
  }
}

}  // namespace

std::vector<Finding> unverified_findings(const Facts& facts, int expected_gpus, const std::vector<std::string>& required,
                                         const std::vector<Finding>& known) {
  std::vector<Finding> out;
  if (facts.kernels) kernel_findings(*facts.kernels, required, out);
  if (!has_gpu_on_bus(facts) && expected_gpus <= 0) return out;
  const bool driver_explained = std::any_of(known.begin(), known.end(), [](const Finding& f) {
    return f.severity == Severity::error && (f.category == "driver-missing" || f.category == "driver-mismatch");
  });
  for (const auto& n : facts.notes) {
    const Reason r = n.problem.reason;
    if (const Answerer* a = answerer_for(n)) {
      if (r == Reason::timed_out || ((r == Reason::failed || r == Reason::malformed) && !driver_explained))
        out.push_back(unverified(n, a->what, a->fix));
    } else if (r == Reason::timed_out) {
      out.push_back(unverified(n, "what the " + n.subject + " probe reads",
                               "Find what hangs (the note names it) or give the run a longer --timeout"));
    }
  }
  return out;
}

}  // namespace gpucheck
