// Facts from the kernel checks (`gpucheck kernels`): per GPU, per precision,
// did the driver's JIT take the PTX, is the result right against a CPU
// reference, and how fast was it against the datasheet. Field meanings:
// docs/kernels.md. Absent means not measured; `status` says why.
#pragma once

#include <algorithm>
#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

#include "facts/kernel_vocabulary.hpp"
#include "facts/pci_vocabulary.hpp"

namespace gpucheck {

// One precision on one GPU.
struct KernelCheck {
  std::string precision;            // "fp64", "fp32", "tf32", "fp16", "bf16", "int8", "fp8_e4m3", "fp8_e5m2", "fp6_e3m2", "fp6_e2m3", "fp4"
  // passed, failed, jit_failed, launch_failed, timed_out, crashed,
  // context_error, not_expected, not_implemented, skipped, not_run
  StepStatus status = StepStatus::not_run;
  std::optional<std::string> reason;          // why it was not run, or what went wrong, in words
  bool expected = false;                      // the architecture should have this precision
  std::string expected_source;                // "matrix" or "ptx_target" (no matrix: what the PTX can express)
  std::optional<std::string> kernel;          // .entry name
  std::optional<std::string> instruction;     // "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"
  std::optional<std::string> ptx_target;      // declared .target: "sm_80"
  std::optional<std::string> ptx_version;     // declared .version: "7.0"
  // The driver's JIT refused the planned kernel's PTX ISA version and this
  // check ran the next variant (kernel, instruction and ptx_* name it): why.
  std::optional<std::string> jit_fallback;
  std::optional<bool> jit_ok;
  std::optional<int> jit_code;                // CUresult of cuModuleLoadDataEx
  std::optional<std::string> jit_error;       // error name and the JIT's error log
  std::optional<int> launch_code;             // CUresult of the launch or the synchronisation after it
  std::optional<std::string> launch_error;
  std::optional<bool> correct;
  std::optional<std::uint64_t> elements_checked, elements_wrong, elements_unwritten, elements_nan;
  std::optional<double> max_abs_error;
  std::optional<std::string> tolerance;       // the rule, in words
  std::optional<std::string> first_mismatch;
  std::optional<double> tflops;               // measured (TOPS for int8)
  std::optional<double> datasheet_tflops;     // from the matrix
  std::optional<double> ratio;                // tflops / datasheet_tflops
  std::optional<double> seconds;              // the timed run
  std::optional<std::uint64_t> throughput_unwritten;  // outputs the timed run left poisoned or NaN
};

// An expected check that ran to a verdict: one with no kernel yet
// (not_implemented) or never reached (skipped) says nothing of the GPU.
inline bool judged(const KernelCheck& c) {
  return c.expected && c.status != StepStatus::not_implemented && c.status != StepStatus::skipped;
}

// Memory bandwidth: device copy (bytes read + written), host to device, device to host.
struct BandwidthCheck {
  std::string kind;                           // "device_copy", "host_to_device", "device_to_host"
  StepStatus status = StepStatus::not_run;    // passed, failed, launch_failed, timed_out, crashed, context_error, skipped
  std::optional<std::string> reason;
  std::optional<std::uint64_t> bytes;         // moved per timed repetition (copy: read + written)
  std::optional<double> gbs;                  // GB/s, decimal
  std::optional<double> expected_gbs;         // datasheet (device) or PCIe link (host)
  std::optional<std::string> expected_source; // "matrix", "pcie gen4 x16", …
  std::optional<double> ratio;
  std::optional<bool> correct;                // the copied data arrived intact
};

// A sample of the sustained mode (--duration): one interval of about 0.5 s.
struct SustainedSample {
  double t_s = 0;                             // seconds since the sustained run began, at the interval's end
  std::optional<double> tflops;
  std::optional<int> sm_clock_mhz, mem_clock_mhz, temperature_c;
  std::optional<double> power_w;
  std::optional<std::uint64_t> throttle_reasons;  // nvmlClocksEventReasons bit mask
};

// One throughput kernel run for --duration seconds (docs/kernels.md).
struct SustainedRun {
  std::string precision;                      // the best of bf16, fp16, fp32 the GPU has
  std::optional<std::string> kernel;          // .entry name (the one that ran)
  std::optional<std::string> jit_fallback;    // as KernelCheck::jit_fallback
  // ran, jit_failed, launch_failed, failed, timed_out, crashed, context_error, skipped, not_run
  StepStatus status = StepStatus::not_run;
  std::optional<std::string> reason;
  double duration_s = 0;                      // asked for
  std::vector<SustainedSample> samples;
  std::optional<std::string> telemetry;       // NVML's absence or failure, in words
};

// What a sustained run's samples add up to, for the report and the rules.
struct SustainedSummary {
  std::optional<double> first_tflops, last_tflops, lowest_tflops;
  std::optional<int> hottest_c;
  std::optional<std::uint64_t> reasons;       // every sample's mask OR-ed; none: no sample had one
};

inline SustainedSummary summarize(const SustainedRun& run) {
  SustainedSummary s;
  for (auto& x : run.samples) {
    if (x.tflops) {
      if (!s.first_tflops) s.first_tflops = x.tflops;
      s.last_tflops = x.tflops;
      s.lowest_tflops = std::min(s.lowest_tflops.value_or(*x.tflops), *x.tflops);
    }
    if (x.temperature_c) s.hottest_c = std::max(s.hottest_c.value_or(*x.temperature_c), *x.temperature_c);
    if (x.throttle_reasons) s.reasons = s.reasons.value_or(0) | *x.throttle_reasons;
  }
  return s;
}

struct GpuKernelFacts {
  std::optional<int> ordinal;                 // CUDA ordinal, after CUDA_VISIBLE_DEVICES
  PciVendor vendor = PciVendor::nvidia;
  std::optional<std::string> name, uuid, pci_bus_id, compute_capability;
  std::optional<int> sm_count;
  bool mig = false;                           // a MIG instance: datasheet ratios are of the whole GPU
  std::optional<std::string> model;           // matrix GpuModel id
  std::optional<std::string> architecture;
  GpuRunStatus status = GpuRunStatus::ran;
  std::optional<std::string> reason;          // why waived or failed
  int child_restarts = 0;                     // children started again after a hang or crash
  std::vector<KernelCheck> checks;
  std::vector<BandwidthCheck> bandwidth;
  std::optional<SustainedRun> sustained;
};

// A copy from one GPU's memory to another's (cuMemcpyPeerAsync, peer access
// enabled both ways where the driver grants it): its words checked, its
// rate against the link between them (docs/kernels.md, "Peer copies").
struct PeerCopy {
  int src_ordinal = 0, dst_ordinal = 0;       // CUDA ordinals
  std::optional<std::string> src_bus, dst_bus;  // PCI bus ids, normalised
  // passed, failed (bytes wrong), launch_failed, timed_out, crashed,
  // context_error, skipped (no peer access, no memory, deadline), not_run
  StepStatus status = StepStatus::not_run;
  std::optional<std::string> reason;
  std::optional<bool> can_access;             // cuDeviceCanAccessPeer
  std::optional<std::uint64_t> bytes;         // one copy
  std::optional<std::uint64_t> words_checked, words_wrong;
  std::optional<bool> correct;
  std::optional<double> gbs;                  // GB/s, decimal, one direction
  // The link between the two, as the facts show it: "nvlink", "nvswitch",
  // "pcie_switch" (both below one PCIe switch), "pcie_host" (through the CPU).
  std::optional<std::string> link;
  std::optional<double> expected_gbs;         // what that link carries one way; none where not judged
  std::optional<std::string> expected_source; // how: "NVLink: 12 of 12 links, the datasheet's 600 GB/s both ways"
  std::optional<double> ratio;
};

struct KernelFacts {
  std::optional<std::string> library;          // the libcuda that ran them
  std::optional<std::string> driver_version;   // cuDriverGetVersion: "12.2"
  std::optional<std::string> cuda_visible_devices;
  std::optional<std::string> error;            // why nothing could run (no libcuda, cuInit failed)
  std::optional<std::string> matrix_version;   // the matrix the expectations came from
  std::vector<GpuKernelFacts> gpus;
  std::vector<PeerCopy> peer_copies;           // every ordered pair of the GPUs that ran; none with one GPU
};

// Its JSON form (kernel_json.cpp): every field written, unknown is null.
nlohmann::ordered_json to_json(const KernelFacts& k);

}  // namespace gpucheck
