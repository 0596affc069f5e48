// The `gpucheck kernels` table (kernels_report.hpp).
#include "report/kernels_report.hpp"

#include <cstdio>
#include <iomanip>
#include <sstream>
#include <string_view>

#include "facts/clock_events.hpp"

namespace gpucheck {
namespace {

std::string fixed(std::optional<double> v, int digits) {
  if (!v) return "-";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, *v);
  return buf;
}

// A left-aligned column of at least `w` characters.
struct Pad {
  std::string_view text;
  int w;
};
Pad pad(std::string_view s, int w) { return Pad{s, w}; }
std::ostream& operator<<(std::ostream& o, const Pad& p) {
  return o << std::left << std::setw(p.w) << p.text << std::right;
}

// The sustained run in a few lines: did the rate hold, how hot, which
// clock-event reasons NVML reported.
std::string sustained_text(const SustainedRun& s) {
  std::ostringstream o;
  o << "  sustained " << (s.precision.empty() ? "-" : s.precision) << " for " << fixed(s.duration_s, 1) << " s: " << to_string(s.status);
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

}  // namespace

std::string render_kernels_text(const KernelFacts& k) {
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
    if (g.status != GpuRunStatus::ran) o << "  " << to_string(g.status) << ": " << g.reason.value_or("") << "\n";
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
      o << "  " << pad(c.precision, 10) << pad(c.expected ? "yes" : "no", 9) << pad(to_string(c.status), 16)
        << pad(fixed(c.tflops, 1), 10) << pad(fixed(c.datasheet_tflops, 1), 10) << pad(fixed(c.ratio, 2), 7) << detail
        << "\n";
    }
    for (auto& b : g.bandwidth) {
      o << "  " << pad(b.kind, 16) << pad(to_string(b.status), 10) << pad(fixed(b.gbs, 1) + " GB/s", 14);
      if (b.expected_gbs) o << "of " << fixed(b.expected_gbs, 1) << " (" << b.expected_source.value_or("") << ") = " << fixed(b.ratio, 2);
      if (b.reason) o << "  " << *b.reason;
      o << "\n";
    }
    if (g.sustained) o << sustained_text(*g.sustained);
    if (g.child_restarts) o << "  the check process was restarted " << g.child_restarts << " time(s) after a hang, crash or context error\n";
  }
  if (!k.peer_copies.empty()) {
    o << "\nPeer copies (GPU to GPU, one direction):\n  " << pad("from", 6) << pad("to", 6) << pad("status", 16)
      << pad("GB/s", 10) << pad("expected", 10) << pad("ratio", 7) << "link\n";
    for (auto& p : k.peer_copies) {
      o << "  " << pad(std::to_string(p.src_ordinal), 6) << pad(std::to_string(p.dst_ordinal), 6) << pad(to_string(p.status), 16)
        << pad(fixed(p.gbs, 1), 10) << pad(fixed(p.expected_gbs, 1), 10) << pad(fixed(p.ratio, 2), 7)
        << p.expected_source.value_or(p.link.value_or("-"));
      if (p.reason) o << "; " << *p.reason;
      o << "\n";
    }
  }
  return o.str();
}

}  // namespace gpucheck
