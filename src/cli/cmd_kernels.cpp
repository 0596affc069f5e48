// `gpucheck kernels`: run the precision and bandwidth checks on every
// visible GPU (in watched child processes) and print a table per GPU, or the
// facts as JSON. Exit code: 0 every expected check passed, 1 one did not,
// 2 the checks could not run (docs/exit-codes.md).
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/app.hpp"
#include "facts/clock_events.hpp"
#include "kernels/run.hpp"

namespace gpucheck {
namespace {

std::string fixed(std::optional<double> v, int digits) {
  if (!v) return "-";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, *v);
  return buf;
}

std::string pad(std::string s, std::size_t w) {
  if (s.size() < w) s.append(w - s.size(), ' ');
  return s;
}

// The sustained run in a few lines: did the rate hold, how hot, which
// clock-event reasons NVML reported.
std::string sustained_text(const SustainedRun& s) {
  std::ostringstream o;
  o << "  sustained " << (s.precision.empty() ? "-" : s.precision) << " for " << fixed(s.duration_s, 1) << " s: " << s.status;
  if (s.reason) o << " (" << *s.reason << ")";
  o << ", " << s.samples.size() << " samples\n";
  if (s.jit_fallback) o << "    " << *s.jit_fallback << "\n";
  const SustainedSummary sum = summarize(s);
  if (sum.first_tflops) {
    o << "    rate " << fixed(sum.first_tflops, 1) << " -> " << fixed(sum.last_tflops, 1) << " TFLOP/s";
    if (*sum.first_tflops > 0) o << ", lowest " << fixed(*sum.lowest_tflops / *sum.first_tflops * 100, 0) << "% of the first interval";
    o << "\n";
  }
  if (sum.hottest_c) o << "    hottest " << *sum.hottest_c << " C\n";
  if (!s.telemetry) {
    std::string names;
    for (auto& n : clock_event_names(sum.reasons.value_or(0))) names += (names.empty() ? "" : ", ") + n;
    if (!s.samples.empty()) o << "    clock-event reasons seen: " << (names.empty() ? "none" : names) << "\n";
  } else {
    o << "    no clocks or temperature: " << *s.telemetry << "\n";
  }
  return o.str();
}

std::string render_text(const KernelFacts& k) {
  std::ostringstream o;
  if (k.error) o << "kernel checks could not run: " << *k.error << "\n";
  if (k.library) o << "driver: " << *k.library << (k.driver_version ? " (CUDA " + *k.driver_version + ")" : "") << "\n";
  if (k.cuda_visible_devices) o << "CUDA_VISIBLE_DEVICES=" << *k.cuda_visible_devices << "\n";
  if (!k.matrix_version) o << "no matrix: expectations come from what the PTX targets can express; no datasheet ratios\n";
  for (auto& g : k.gpus) {
    o << "\n" << (g.ordinal ? "GPU " + std::to_string(*g.ordinal) + ": " : "GPU: ") << g.name.value_or("?");
    if (g.compute_capability) o << "  cc " << *g.compute_capability;
    if (g.pci_bus_id) o << "  " << *g.pci_bus_id;
    if (g.mig) o << "  (MIG instance: ratios are against the whole GPU)";
    o << "\n";
    if (g.status != "ran") o << "  " << g.status << ": " << g.reason.value_or("") << "\n";
    if (!g.checks.empty())
      o << "  " << pad("precision", 10) << pad("expected", 9) << pad("status", 16) << pad("TFLOP/s", 10)
        << pad("datasheet", 10) << pad("ratio", 7) << "detail\n";
    for (auto& c : g.checks) {
      std::string detail = c.reason.value_or("");
      if (c.jit_error) detail = "JIT: " + *c.jit_error;
      if (c.launch_error) detail = *c.launch_error;
      if (c.first_mismatch) detail = std::to_string(c.elements_wrong.value_or(0)) + " wrong; " + *c.first_mismatch;
      if (detail.empty() && c.kernel) detail = std::string(*c.kernel) + " (" + c.ptx_target.value_or("") + ", PTX " + c.ptx_version.value_or("") + ")";
      if (c.jit_fallback) detail += "; " + *c.jit_fallback;
      o << "  " << pad(c.precision, 10) << pad(c.expected ? "yes" : "no", 9) << pad(c.status, 16)
        << pad(fixed(c.tflops, 1), 10) << pad(fixed(c.datasheet_tflops, 1), 10) << pad(fixed(c.ratio, 2), 7) << detail
        << "\n";
    }
    for (auto& b : g.bandwidth) {
      o << "  " << pad(b.kind, 16) << pad(b.status, 10) << pad(fixed(b.gbs, 1) + " GB/s", 14);
      if (b.expected_gbs) o << "of " << fixed(b.expected_gbs, 1) << " (" << b.expected_source.value_or("") << ") = " << fixed(b.ratio, 2);
      if (b.reason) o << "  " << *b.reason;
      o << "\n";
    }
    if (g.sustained) o << sustained_text(*g.sustained);
    if (g.child_restarts) o << "  the check process was restarted " << g.child_restarts << " time(s) after a hang, crash or context error\n";
  }
  return o.str();
}

}  // namespace

void add_kernels_command(CLI::App& app, const GlobalOptions& g, Action& action) {
  auto* cmd = app.add_subcommand(
      "kernels",
      "Run small PTX kernels on every visible GPU (CUDA_VISIBLE_DEVICES and MIG honoured): per precision, does the "
      "driver's JIT take them, are the results right against a CPU reference, how fast against the datasheet; plus "
      "memory and PCIe bandwidth. Each GPU runs in a watched child process. Exit code 0 all expected checks passed, "
      "1 one did not, 2 the checks could not run.");
  auto json = std::make_shared<bool>(false);
  auto flags = std::make_shared<KernelFlags>();
  cmd->add_flag("--json", *json, "Print the results as JSON (fields: docs/kernels.md)");
  add_kernel_options(cmd, *flags);
  cmd->callback([&g, &action, json, flags] {
    action = [&g, json, flags] {
      if (!live_only(g, "kernel checks run")) return kExitUsage;
      auto knowledge = load_knowledge_or_report(g);
      if (!knowledge) return kExitUsage;
      auto facts = acquire_facts(g, g.probe_options());
      if (!facts) return kExitUsage;
      kernels::KernelRequest req = kernels::request_for(*facts, &knowledge->matrix);
      apply_kernel_flags(*flags, g, req);
      const KernelFacts result = kernels::run_kernel_checks(req);
      if (*json) {
        nlohmann::ordered_json j{{"gpucheck_version", GPUCHECK_VERSION}, {"kernels", to_json(result)}};
        std::cout << j.dump(2) << "\n";
      } else {
        std::cout << render_text(result);
      }
      return kernels::kernels_exit_code(result);
    };
  });
}

}  // namespace gpucheck
