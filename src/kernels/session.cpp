// The child side of the kernel checks (session.hpp). Every driver call is
// checked; the first failure of a step becomes its result.
#include "kernels/session.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <nlohmann/json.hpp>
#include <optional>

#include "facts/kernel_vocabulary.hpp"
#include "host/dynamic_library.hpp"
#include "kernels/catalog.hpp"
#include "kernels/driver_api.hpp"
#include "kernels/driver_calls.hpp"
#include "kernels/nvml_api.hpp"
#include "kernels/reference.hpp"
#include "matrix/platform_knowledge.hpp"
#include "util/json_text.hpp"

namespace gpucheck::kernels {
namespace {

using nlohmann::json;
using namespace cu;

constexpr unsigned kThreads = 256;  // 8 warps a block

struct Device {
  const Api& api;
  CUdevice dev;
  int sms = 1;
  std::string pci_bus_id;  // for NVML
};

struct Module {
  const Api& api;
  CUmodule mod = nullptr;
  ~Module() { if (mod) api.cuModuleUnload(mod); }
};

void upload(const Api& api, DeviceBuffer& d, const std::vector<std::uint8_t>& bytes) {
  CU_TRY(api.cuMemAlloc_v2(&d.ptr, std::max<std::size_t>(bytes.size(), 4)));
  if (!bytes.empty()) CU_TRY(api.cuMemcpyHtoD_v2(d.ptr, bytes.data(), bytes.size()));
}

void launch(const Api& api, CUfunction f, unsigned blocks, void** params) {
  CU_TRY(api.cuLaunchKernel(f, blocks, 1, 1, kThreads, 1, 1, 0, nullptr, params, nullptr));
}

const KernelSpec* find_kernel(const std::string& entry) {
  for (auto& k : all_kernels())
    if (entry == k.entry) return &k;
  return nullptr;
}

// Loads the PTX through the driver's JIT. On failure, the result says why.
std::optional<CUmodule> jit(const Api& api, const KernelSpec& k, json& result) {
  char error_log[8192] = {}, info_log[8192] = {};
  CUjit_option opts[] = {kJitErrorLogBuffer, kJitErrorLogBufferSize, kJitInfoLogBuffer, kJitInfoLogBufferSize};
  void* values[] = {error_log, reinterpret_cast<void*>(sizeof error_log - 1), info_log,
                    reinterpret_cast<void*>(sizeof info_log - 1)};
  CUmodule mod = nullptr;
  const CUresult r = api.cuModuleLoadDataEx(&mod, k.ptx, 4, opts, values);
  result["jit_ok"] = r == 0;
  if (r == 0) return mod;
  result["jit_code"] = r;
  std::string why = api.error_name(r);
  if (error_log[0]) why += ": " + std::string(error_log);
  result["jit_error"] = why;
  result["status"] = word(StepStatus::jit_failed);
  return std::nullopt;
}

// The PTX declares an ISA version newer than the driver's JIT knows (the
// code cuda.h gives the name: matrix/cuda_errors.json).
bool unsupported_ptx_version(int code) { return code == cuda_error_code("CUDA_ERROR_UNSUPPORTED_PTX_VERSION"); }

// jit(), and where the driver is too old for the kernel's PTX ISA version
// (wgmma needs PTX 8.0, the sm_120f kernels 8.8), the variant the plan named
// in o.jit_fallback instead: an old driver is not a GPU that lacks the
// precision. The result names the kernel that ran and says why.
struct Jitted {
  CUmodule mod;
  const KernelSpec* spec;
};
std::optional<Jitted> jit_with_fallback(const Api& api, const KernelSpec& k, const SessionOptions& o, json& result) {
  const KernelSpec* spec = &k;
  std::string refused;
  for (;;) {
    if (auto mod = jit(api, *spec, result)) {
      if (spec != &k) {
        result["kernel"] = spec->entry;
        result["instruction"] = spec->instruction;
        result["ptx_target"] = spec->target;
        result["ptx_version"] = spec->isa;
        result["jit_fallback"] = refused + "; ran " + spec->entry + " instead";
      }
      return Jitted{*mod, spec};
    }
    const auto next = o.jit_fallback.find(spec->entry);
    if (!unsupported_ptx_version(result.value("jit_code", 0)) || next == o.jit_fallback.end()) return std::nullopt;
    const KernelSpec* fallback = find_kernel(next->second);
    if (!fallback) return std::nullopt;
    refused += (refused.empty() ? "" : "; ") + std::string("the driver's JIT refused ") + spec->entry + " (PTX " +
               spec->isa + ", " + spec->target + "): " + result.value("jit_error", "");
    for (const char* field : {"jit_code", "jit_error", "status"}) result.erase(field);
    spec = fallback;
  }
}

// The throughput launch: every SM busy, operands in registers.
struct Throughput {
  unsigned blocks = 1;
  double ops_per_iter = 0;  // instructions per loop trip, all warps
  long flops_per_op = 0;
  double flops_per_launch(unsigned iters) const { return ops_per_iter * iters * static_cast<double>(flops_per_op); }
};

// Scales `iters` (a kernel parameter) until one launch lasts about target_ms.
Throughput calibrate(const Device& d, const KernelSpec& k, const SessionOptions& o, CUfunction fn, void** params,
                     unsigned& iters) {
  const Api& api = d.api;
  Throughput t;
  t.blocks = static_cast<unsigned>(std::max(1, d.sms * o.blocks_per_sm));
  t.ops_per_iter = static_cast<double>(t.blocks) * (kThreads / 32) * k.chains * k.unroll;
  t.flops_per_op = k.flops_per_op;
  iters = 64;
  float ms = timed(api, [&] { launch(api, fn, t.blocks, params); });
  for (int round = 0; round < 3 && ms < o.target_ms / 4 && iters < (1u << 24); ++round) {
    iters = static_cast<unsigned>(std::min<double>(1u << 24, iters * std::max(2.0, o.target_ms / std::max(ms, 0.001f))));
    ms = timed(api, [&] { launch(api, fn, t.blocks, params); });
  }
  return t;
}

// A kernel the driver compiled, with its operands on the device and the
// launch parameters that point at them: where a check and the sustained run
// both start. Not copyable: `params` points into it.
struct Loaded {
  Module mod;
  CUfunction fn = nullptr;
  const CheckData data;
  DeviceBuffer a, b, c, out;
  unsigned iters = 1, tiles;
  void* params[6];
  Loaded(const Api& api, CUmodule m, const KernelSpec& k, const SessionOptions& o)
      : mod{api, m}, data(make_check_data(k, o.tiles, o.seed)), a{api, 0}, b{api, 0}, c{api, 0}, out{api, 0},
        tiles(static_cast<unsigned>(o.tiles)), params{&a.ptr, &b.ptr, &c.ptr, &out.ptr, &iters, &tiles} {
    CU_TRY(api.cuModuleGetFunction(&fn, mod.mod, k.entry.c_str()));
    upload(api, a, data.a);
    upload(api, b, data.b);
    upload(api, c, data.c);
    CU_TRY(api.cuMemAlloc_v2(&out.ptr, data.d_bytes()));
  }
  Loaded(const Loaded&) = delete;
  Loaded& operator=(const Loaded&) = delete;
};

void run_kernel(const Device& d, const KernelSpec& asked, const SessionOptions& o, json& result) {
  const Api& api = d.api;
  const auto jitted = jit_with_fallback(api, asked, o, result);
  if (!jitted) return;
  const KernelSpec& k = *jitted->spec;
  Loaded l(api, jitted->mod, k, o);

  // Correctness: one loop trip, one warp (wgmma, tcgen05: one warpgroup) per tile.
  CU_TRY(api.cuMemsetD32_v2(l.out.ptr, kPoison, l.data.d_bytes() / 4));
  const unsigned warps = l.tiles * static_cast<unsigned>(warps_per_tile(k)), warps_per_block = kThreads / 32;
  launch(api, l.fn, (warps + warps_per_block - 1) / warps_per_block, l.params);
  CU_TRY(api.cuCtxSynchronize());
  std::vector<std::uint8_t> got(l.data.d_bytes());
  CU_TRY(api.cuMemcpyDtoH_v2(got.data(), l.out.ptr, got.size()));
  const Comparison cmp = compare(k, l.data, got);
  result["correct"] = cmp.wrong == 0;
  result["elements_checked"] = cmp.checked;
  result["elements_wrong"] = cmp.wrong;
  result["elements_unwritten"] = cmp.unwritten;
  result["elements_nan"] = cmp.nan;
  result["max_abs_error"] = cmp.max_abs_error;
  result["tolerance"] = tolerance_rule(k);
  if (!cmp.first_mismatch.empty()) result["first_mismatch"] = cmp.first_mismatch;

  const Throughput t = calibrate(d, k, o, l.fn, l.params, l.iters);
  CU_TRY(api.cuMemsetD32_v2(l.out.ptr, kPoison, l.data.d_bytes() / 4));
  const float ms = timed(api, [&] { launch(api, l.fn, t.blocks, l.params); });
  CU_TRY(api.cuMemcpyDtoH_v2(got.data(), l.out.ptr, got.size()));
  result["throughput_unwritten"] = count_unwritten(k, got);
  if (ms > 0) {
    result["seconds"] = ms / 1000.0;
    result["tflops"] = t.flops_per_launch(l.iters) / (ms / 1000.0) / 1e12;
  }
  result["status"] = word(cmp.wrong == 0 ? StepStatus::passed : StepStatus::failed);
}

// The sustained mode: the throughput launch of run_kernel, relaunched (one
// launch in flight, each synchronised, so the loop follows the wall clock)
// for o.sustained_s seconds; per interval of about o.sample_s, the rate from
// CUDA events and one NVML reading, written as it is taken so a later hang
// does not lose it.
void run_sustained(const Device& d, const KernelSpec& asked, const SessionOptions& o, const LineSender& out,
                   json& result) {
  using WallClock = std::chrono::steady_clock;
  const Api& api = d.api;
  const auto jitted = jit_with_fallback(api, asked, o, result);
  if (!jitted) return;
  const KernelSpec& k = *jitted->spec;
  Loaded l(api, jitted->mod, k, o);
  const Throughput t = calibrate(d, k, o, l.fn, l.params, l.iters);

  const nvml::Telemetry telemetry(o.nvml, d.pci_bus_id);
  if (!telemetry.ok()) {
    result["telemetry"] = telemetry.why();
    out(dump_json(json{{"telemetry", telemetry.why()}}));
  }
  const auto start = WallClock::now();
  const auto end = start + std::chrono::duration_cast<WallClock::duration>(std::chrono::duration<double>(o.sustained_s));
  const auto interval = std::chrono::duration_cast<WallClock::duration>(std::chrono::duration<double>(o.sample_s));
  int samples = 0;
  while (WallClock::now() < end) {
    const auto interval_end = std::min(end, WallClock::now() + interval);
    Event first{api}, last{api};
    CU_TRY(api.cuEventCreate(&first.ev, 0));
    CU_TRY(api.cuEventCreate(&last.ev, 0));
    CU_TRY(api.cuEventRecord(first.ev, nullptr));
    double launches = 0;
    do {
      launch(api, l.fn, t.blocks, l.params);
      CU_TRY(api.cuEventRecord(last.ev, nullptr));
      CU_TRY(api.cuEventSynchronize(last.ev));
      ++launches;
    } while (WallClock::now() < interval_end);
    float ms = 0;
    CU_TRY(api.cuEventElapsedTime(&ms, first.ev, last.ev));
    json s{{"t_s", std::chrono::duration<double>(WallClock::now() - start).count()}};
    if (ms > 0) s["tflops"] = t.flops_per_launch(l.iters) * launches / (ms / 1000.0) / 1e12;
    const nvml::Reading r = telemetry.read();
    if (r.sm_clock_mhz) s["sm_clock_mhz"] = *r.sm_clock_mhz;
    if (r.mem_clock_mhz) s["mem_clock_mhz"] = *r.mem_clock_mhz;
    if (r.temperature_c) s["temperature_c"] = *r.temperature_c;
    if (r.power_w) s["power_w"] = *r.power_w;
    if (r.reasons) s["throttle_reasons"] = *r.reasons;
    out(dump_json(json{{"sample", s}}));
    ++samples;
  }
  result["samples"] = samples;
  result["status"] = word(StepStatus::ran);
}

void run_bandwidth(const Device& d, const KernelSpec& copy, const SessionOptions& o, json& result) {
  const Api& api = d.api;
  json checks = json::array();
  auto mod_or = jit(api, copy, result);
  if (!mod_or) return;
  Module mod{api, *mod_or};
  CUfunction fn = nullptr;
  CU_TRY(api.cuModuleGetFunction(&fn, mod.mod, copy.entry.c_str()));
  const std::uint64_t n = o.copy_bytes / 16 * 16, chunk = std::min<std::uint64_t>(o.host_chunk / 16 * 16, n);
  HostBuffer host{api};
  CU_TRY(api.cuMemAllocHost_v2(&host.ptr, chunk));
  DeviceBuffer src{api}, dst{api};
  CU_TRY(api.cuMemAlloc_v2(&src.ptr, n));
  CU_TRY(api.cuMemAlloc_v2(&dst.ptr, n));
  auto* words = static_cast<std::uint32_t*>(host.ptr);

  float best_h2d = 0, best_d2h = 0;
  for (std::uint64_t off = 0; off < n; off += chunk) {
    const std::uint64_t len = std::min(chunk, n - off);
    for (std::uint64_t i = 0; i < len / 4; ++i) words[i] = copy_pattern(off / 4 + i);
    const float ms = timed(api, [&] { CU_TRY(api.cuMemcpyHtoD_v2(src.ptr + off, host.ptr, len)); });
    if (ms > 0) best_h2d = std::max(best_h2d, static_cast<float>(static_cast<double>(len) / (ms / 1000.0) / 1e9));
  }
  CU_TRY(api.cuMemsetD32_v2(dst.ptr, kPoison, n / 4));
  unsigned long long vecs = n / 16;
  void* params[] = {&src.ptr, &dst.ptr, &vecs};
  const unsigned blocks = static_cast<unsigned>(std::max(1, d.sms * 8));
  launch(api, fn, blocks, params);  // warm-up
  CU_TRY(api.cuCtxSynchronize());
  const int reps = 10;
  const float copy_ms = timed(api, [&] {
    for (int r = 0; r < reps; ++r) launch(api, fn, blocks, params);
  });
  std::uint64_t bad = 0;
  for (std::uint64_t off = 0; off < n; off += chunk) {
    const std::uint64_t len = std::min(chunk, n - off);
    const float ms = timed(api, [&] { CU_TRY(api.cuMemcpyDtoH_v2(host.ptr, dst.ptr + off, len)); });
    if (ms > 0) best_d2h = std::max(best_d2h, static_cast<float>(static_cast<double>(len) / (ms / 1000.0) / 1e9));
    for (std::uint64_t i = 0; i < len / 4; ++i) bad += words[i] != copy_pattern(off / 4 + i);
  }
  json copy_r{{"kind", "device_copy"}, {"bytes", 2 * n}, {"correct", bad == 0},
              {"status", word(bad == 0 ? StepStatus::passed : StepStatus::failed)}};
  if (bad) copy_r["reason"] = std::to_string(bad) + " of " + std::to_string(n / 4) + " words did not arrive as written";
  if (copy_ms > 0) copy_r["gbs"] = 2.0 * static_cast<double>(n) * reps / (copy_ms / 1000.0) / 1e9;
  checks.push_back(copy_r);
  json h2d{{"kind", "host_to_device"}, {"bytes", chunk}, {"status", word(StepStatus::passed)}};
  if (best_h2d > 0) h2d["gbs"] = best_h2d;
  json d2h{{"kind", "device_to_host"}, {"bytes", chunk}, {"status", word(StepStatus::passed)}};
  if (best_d2h > 0) d2h["gbs"] = best_d2h;
  checks.push_back(h2d);
  checks.push_back(d2h);
  result["bandwidth"] = checks;
  result["status"] = word(StepStatus::passed);
}

}  // namespace

void session_enumerate(const std::vector<std::string>& candidates, const LineSender& out) {
  json j;
  Api api;
  const auto lib = load_driver(candidates, api, j);  // open while the driver is asked
  if (!lib) return out(dump_json(j));
  j.update(cuda::list_devices(api));
  out(dump_json(j));
}

void session_run(const std::vector<std::string>& candidates, int ordinal, const std::vector<std::string>& steps,
                 const SessionOptions& opts, const LineSender& out) {
  json head;
  Api api;
  auto lib = load_driver(candidates, api, head);
  if (!lib) return out(dump_json(json{{"fatal", head}}));
  Device d{api, 0, 1, {}};
  CUcontext ctx = nullptr;
  CUresult r = api.cuDeviceGet(&d.dev, ordinal);
  if (r == 0) r = api.cuDevicePrimaryCtxRetain(&ctx, d.dev);
  if (r == 0) r = api.cuCtxSetCurrent(ctx);
  if (r != 0) return out(dump_json(json{{"fatal", json{{"context_error", api.error_name(r)}}}}));
  api.cuDeviceGetAttribute(&d.sms, kAttrMultiprocessorCount, d.dev);
  char bus[64] = {};
  if (api.cuDeviceGetPCIBusId(bus, sizeof bus - 1, d.dev) == 0) d.pci_bus_id = bus;
  for (const auto& step : steps) {
    out(dump_json(json{{"start", step}}));
    json result = json::object();
    const std::string entry = step == "bandwidth" ? "gpucheck_copy_b128" : step == "sustained" ? opts.sustained_kernel : step;
    const KernelSpec* k = find_kernel(entry);
    try {
      if (!k) {
        result["status"] = word(StepStatus::skipped);
        result["reason"] = "no kernel named " + entry;
      } else if (step == "bandwidth") {
        run_bandwidth(d, *k, opts, result);
      } else if (step == "sustained") {
        run_sustained(d, *k, opts, out, result);
      } else {
        run_kernel(d, *k, opts, result);
      }
    } catch (const Failure& f) {
      record_failure(api, f, result);
    }
    out(dump_json(json{{"step", step}, {"result", result}}));
    if (result.value("context_error", false)) return;
  }
  api.cuDevicePrimaryCtxRelease_v2(d.dev);
}

}  // namespace gpucheck::kernels
