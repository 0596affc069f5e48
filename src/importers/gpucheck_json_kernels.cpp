// The inverse of src/facts/kernel_json.cpp: per GPU, the precision checks,
// bandwidth checks and the sustained run; the peer copies between GPUs.
#include "importers/gpucheck_json.hpp"

namespace gpucheck {

namespace {

using Node = JsonReader::Node;

KernelCheck read_check(JsonReader& r, const Node& n) {
  KernelCheck c;
  c.precision = r.string(n, "precision");
  c.status = r.word(n, "status", step_status_named, step_status_names(), StepStatus::failed);
  c.reason = r.opt_string(n, "reason");
  c.expected = r.boolean(n, "expected");
  c.expected_source = r.string(n, "expected_source");
  c.kernel = r.opt_string(n, "kernel");
  c.instruction = r.opt_string(n, "instruction");
  c.ptx_target = r.opt_string(n, "ptx_target");
  c.ptx_version = r.opt_string(n, "ptx_version");
  c.jit_fallback = r.opt_string(n, "jit_fallback");
  c.jit_ok = r.opt_bool(n, "jit_ok");
  c.jit_code = r.opt_narrow<int>(n, "jit_code");
  c.jit_error = r.opt_string(n, "jit_error");
  c.launch_code = r.opt_narrow<int>(n, "launch_code");
  c.launch_error = r.opt_string(n, "launch_error");
  c.correct = r.opt_bool(n, "correct");
  c.elements_checked = r.opt_uint(n, "elements_checked");
  c.elements_wrong = r.opt_uint(n, "elements_wrong");
  c.elements_unwritten = r.opt_uint(n, "elements_unwritten");
  c.elements_nan = r.opt_uint(n, "elements_nan");
  c.max_abs_error = r.opt_double(n, "max_abs_error");
  c.tolerance = r.opt_string(n, "tolerance");
  c.first_mismatch = r.opt_string(n, "first_mismatch");
  c.tflops = r.opt_double(n, "tflops");
  c.datasheet_tflops = r.opt_double(n, "datasheet_tflops");
  c.ratio = r.opt_double(n, "ratio");
  c.seconds = r.opt_double(n, "seconds");
  c.throughput_unwritten = r.opt_uint(n, "throughput_unwritten");
  return c;
}

BandwidthCheck read_bandwidth(JsonReader& r, const Node& n) {
  BandwidthCheck b;
  b.kind = r.string(n, "kind");
  b.status = r.word(n, "status", step_status_named, step_status_names(), StepStatus::failed);
  b.reason = r.opt_string(n, "reason");
  b.bytes = r.opt_uint(n, "bytes");
  b.gbs = r.opt_double(n, "gbs");
  b.expected_gbs = r.opt_double(n, "expected_gbs");
  b.expected_source = r.opt_string(n, "expected_source");
  b.ratio = r.opt_double(n, "ratio");
  b.correct = r.opt_bool(n, "correct");
  return b;
}

SustainedRun read_sustained(JsonReader& r, const Node& n) {
  SustainedRun s;
  s.precision = r.string(n, "precision");
  s.kernel = r.opt_string(n, "kernel");
  s.jit_fallback = r.opt_string(n, "jit_fallback");
  s.status = r.word(n, "status", step_status_named, step_status_names(), StepStatus::failed);
  s.reason = r.opt_string(n, "reason");
  s.duration_s = r.number(n, "duration_s");
  for (auto& x : r.objects(r.child(n, "samples"))) {
    SustainedSample m;
    m.t_s = r.number(x, "t_s");
    m.tflops = r.opt_double(x, "tflops");
    m.sm_clock_mhz = r.opt_narrow<int>(x, "sm_clock_mhz");
    m.mem_clock_mhz = r.opt_narrow<int>(x, "mem_clock_mhz");
    m.temperature_c = r.opt_narrow<int>(x, "temperature_c");
    m.power_w = r.opt_double(x, "power_w");
    m.throttle_reasons = r.opt_uint(x, "throttle_reasons");
    s.samples.push_back(m);
  }
  s.telemetry = r.opt_string(n, "telemetry");
  return s;
}

PeerCopy read_peer_copy(JsonReader& r, const Node& n) {
  PeerCopy p;
  p.src_ordinal = static_cast<int>(r.integer(n, "src_ordinal"));
  p.dst_ordinal = static_cast<int>(r.integer(n, "dst_ordinal"));
  p.src_bus = r.opt_string(n, "src_bus");
  p.dst_bus = r.opt_string(n, "dst_bus");
  p.status = r.word(n, "status", step_status_named, step_status_names(), StepStatus::failed);
  p.reason = r.opt_string(n, "reason");
  p.can_access = r.opt_bool(n, "can_access");
  p.bytes = r.opt_uint(n, "bytes");
  p.words_checked = r.opt_uint(n, "words_checked");
  p.words_wrong = r.opt_uint(n, "words_wrong");
  p.correct = r.opt_bool(n, "correct");
  p.gbs = r.opt_double(n, "gbs");
  p.link = r.opt_string(n, "link");
  p.expected_gbs = r.opt_double(n, "expected_gbs");
  p.expected_source = r.opt_string(n, "expected_source");
  p.ratio = r.opt_double(n, "ratio");
  return p;
}

GpuKernelFacts read_gpu(JsonReader& r, const Node& n) {
  GpuKernelFacts g;
  g.ordinal = r.opt_narrow<int>(n, "ordinal");
  g.vendor = r.word(n, "vendor", pci_vendor_named, pci_vendor_names(), PciVendor::nvidia);
  g.name = r.opt_string(n, "name");
  g.uuid = r.opt_string(n, "uuid");
  g.pci_bus_id = r.opt_string(n, "pci_bus_id");
  g.compute_capability = r.opt_string(n, "compute_capability");
  g.sm_count = r.opt_narrow<int>(n, "sm_count");
  g.mig = r.boolean(n, "mig");
  g.model = r.opt_string(n, "model");
  g.architecture = r.opt_string(n, "architecture");
  g.status = r.word(n, "status", gpu_run_status_named, gpu_run_status_names(), GpuRunStatus::failed);
  g.reason = r.opt_string(n, "reason");
  g.child_restarts = static_cast<int>(r.integer(n, "child_restarts"));
  for (auto& c : r.objects(r.child(n, "checks"))) g.checks.push_back(read_check(r, c));
  for (auto& b : r.objects(r.child(n, "bandwidth"))) g.bandwidth.push_back(read_bandwidth(r, b));
  if (auto s = r.child(n, "sustained"); !s.absent()) g.sustained = read_sustained(r, s);
  return g;
}

}  // namespace

KernelFacts read_kernels(JsonReader& r, const Node& n) {
  KernelFacts k;
  k.library = r.opt_string(n, "library");
  k.driver_version = r.opt_string(n, "driver_version");
  k.cuda_visible_devices = r.opt_string(n, "cuda_visible_devices");
  k.error = r.opt_string(n, "error");
  k.matrix_version = r.opt_string(n, "matrix_version");
  for (auto& g : r.objects(r.child(n, "gpus"))) k.gpus.push_back(read_gpu(r, g));
  // Absent from reports written before the peer copies existed.
  for (auto& p : r.objects(r.child(n, "peer_copies"))) k.peer_copies.push_back(read_peer_copy(r, p));
  return k;
}

}  // namespace gpucheck
