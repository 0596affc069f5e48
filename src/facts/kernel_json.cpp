// JSON of the kernel checks (docs/kernels.md): every field is written,
// unknown is null.
#include <utility>

#include "facts/json_util.hpp"
#include "facts/kernel_facts.hpp"

namespace gpucheck {
namespace {

J to_json(const KernelCheck& c) {
  return J{{"precision", c.precision},
           {"status", to_string(c.status)},
           {"reason", opt(c.reason)},
           {"expected", c.expected},
           {"expected_source", c.expected_source},
           {"kernel", opt(c.kernel)},
           {"instruction", opt(c.instruction)},
           {"ptx_target", opt(c.ptx_target)},
           {"ptx_version", opt(c.ptx_version)},
           {"jit_fallback", opt(c.jit_fallback)},
           {"jit_ok", opt(c.jit_ok)},
           {"jit_code", opt(c.jit_code)},
           {"jit_error", opt(c.jit_error)},
           {"launch_code", opt(c.launch_code)},
           {"launch_error", opt(c.launch_error)},
           {"correct", opt(c.correct)},
           {"elements_checked", opt(c.elements_checked)},
           {"elements_wrong", opt(c.elements_wrong)},
           {"elements_unwritten", opt(c.elements_unwritten)},
           {"elements_nan", opt(c.elements_nan)},
           {"max_abs_error", opt(c.max_abs_error)},
           {"tolerance", opt(c.tolerance)},
           {"first_mismatch", opt(c.first_mismatch)},
           {"tflops", opt(c.tflops)},
           {"datasheet_tflops", opt(c.datasheet_tflops)},
           {"ratio", opt(c.ratio)},
           {"seconds", opt(c.seconds)},
           {"throughput_unwritten", opt(c.throughput_unwritten)}};
}

J to_json(const BandwidthCheck& b) {
  return J{{"kind", b.kind},
           {"status", to_string(b.status)},
           {"reason", opt(b.reason)},
           {"bytes", opt(b.bytes)},
           {"gbs", opt(b.gbs)},
           {"expected_gbs", opt(b.expected_gbs)},
           {"expected_source", opt(b.expected_source)},
           {"ratio", opt(b.ratio)},
           {"correct", opt(b.correct)}};
}

J to_json(const SustainedRun& s) {
  J samples = J::array();
  for (auto& x : s.samples)
    samples.push_back(J{{"t_s", x.t_s},
                        {"tflops", opt(x.tflops)},
                        {"sm_clock_mhz", opt(x.sm_clock_mhz)},
                        {"mem_clock_mhz", opt(x.mem_clock_mhz)},
                        {"temperature_c", opt(x.temperature_c)},
                        {"power_w", opt(x.power_w)},
                        {"throttle_reasons", opt(x.throttle_reasons)}});
  return J{{"precision", s.precision}, {"kernel", opt(s.kernel)}, {"jit_fallback", opt(s.jit_fallback)}, {"status", to_string(s.status)}, {"reason", opt(s.reason)},
           {"duration_s", s.duration_s}, {"samples", std::move(samples)}, {"telemetry", opt(s.telemetry)}};
}

J to_json(const PeerCopy& p) {
  return J{{"src_ordinal", p.src_ordinal},
           {"dst_ordinal", p.dst_ordinal},
           {"src_bus", opt(p.src_bus)},
           {"dst_bus", opt(p.dst_bus)},
           {"status", to_string(p.status)},
           {"reason", opt(p.reason)},
           {"can_access", opt(p.can_access)},
           {"bytes", opt(p.bytes)},
           {"words_checked", opt(p.words_checked)},
           {"words_wrong", opt(p.words_wrong)},
           {"correct", opt(p.correct)},
           {"gbs", opt(p.gbs)},
           {"link", opt(p.link)},
           {"expected_gbs", opt(p.expected_gbs)},
           {"expected_source", opt(p.expected_source)},
           {"ratio", opt(p.ratio)}};
}

J to_json(const GpuKernelFacts& g) {
  J checks = J::array(), bw = J::array();
  for (auto& c : g.checks) checks.push_back(to_json(c));
  for (auto& b : g.bandwidth) bw.push_back(to_json(b));
  return J{{"ordinal", opt(g.ordinal)},
           {"vendor", to_string(g.vendor)},
           {"name", opt(g.name)},
           {"uuid", opt(g.uuid)},
           {"pci_bus_id", opt(g.pci_bus_id)},
           {"compute_capability", opt(g.compute_capability)},
           {"sm_count", opt(g.sm_count)},
           {"mig", g.mig},
           {"model", opt(g.model)},
           {"architecture", opt(g.architecture)},
           {"status", to_string(g.status)},
           {"reason", opt(g.reason)},
           {"child_restarts", g.child_restarts},
           {"checks", std::move(checks)},
           {"bandwidth", std::move(bw)},
           {"sustained", g.sustained ? to_json(*g.sustained) : J(nullptr)}};
}

}  // namespace

J to_json(const KernelFacts& k) {
  J gpus = J::array();
  for (auto& g : k.gpus) gpus.push_back(to_json(g));
  J peers = J::array();
  for (auto& p : k.peer_copies) peers.push_back(to_json(p));
  return J{{"library", opt(k.library)},
           {"driver_version", opt(k.driver_version)},
           {"cuda_visible_devices", opt(k.cuda_visible_devices)},
           {"error", opt(k.error)},
           {"matrix_version", opt(k.matrix_version)},
           {"gpus", std::move(gpus)},
           {"peer_copies", std::move(peers)}};
}

}  // namespace gpucheck
