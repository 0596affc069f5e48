// The driver's view of each GPU through NVML (libnvidia-ml.so.1), where
// nvidia-smi is absent or did not answer: ECC, retired pages, remapped rows,
// clocks and their event reasons, power, temperature, NVLink fabric,
// persistence and MIG, as nvidia-smi would have shown them. NVML is loaded
// in a child process with its own deadline (Host::isolated_call), as libcuda
// is: a driver that hangs here costs only these facts.
#include <algorithm>
#include <cstring>
#include <nlohmann/json.hpp>

#include "child_answer.hpp"
#include "nvml_child.hpp"
#include "facts/clock_events.hpp"
#include "facts/gpu_host.hpp"
#include "host/dynamic_library.hpp"
#include "host/nvml_types.hpp"
#include "host/symbol_table.hpp"
#include "probe.hpp"
#include "util/json_text.hpp"
#include "util/pci_address.hpp"
#include "util/strings.hpp"
#include "util/version.hpp"

namespace gpucheck {
namespace {

using nlohmann::json;
using namespace nvml;
constexpr const char* kCallKey = "nvml";

// X(name, return, parameters): every entry point the health query uses.
// The first five are needed to list the GPUs; without one of the others,
// what it answers stays unknown.
#define GPUCHECK_NVML_HEALTH_ENTRY_POINTS(X)                                                                   \
  X(nvmlInit_v2, nvmlReturn_t, ())                                                                             \
  X(nvmlShutdown, nvmlReturn_t, ())                                                                            \
  X(nvmlDeviceGetCount_v2, nvmlReturn_t, (unsigned*))                                                          \
  X(nvmlDeviceGetHandleByIndex_v2, nvmlReturn_t, (unsigned, nvmlDevice_t*))                                    \
  X(nvmlDeviceGetPciInfo_v3, nvmlReturn_t, (nvmlDevice_t, PciInfo*))                                           \
  X(nvmlErrorString, const char*, (nvmlReturn_t))                                                              \
  X(nvmlSystemGetDriverVersion, nvmlReturn_t, (char*, unsigned))                                               \
  X(nvmlSystemGetCudaDriverVersion, nvmlReturn_t, (int*))                                                      \
  X(nvmlDeviceGetName, nvmlReturn_t, (nvmlDevice_t, char*, unsigned))                                          \
  X(nvmlDeviceGetUUID, nvmlReturn_t, (nvmlDevice_t, char*, unsigned))                                          \
  X(nvmlDeviceGetMemoryInfo, nvmlReturn_t, (nvmlDevice_t, Memory*))                                            \
  X(nvmlDeviceGetEccMode, nvmlReturn_t, (nvmlDevice_t, int*, int*))                                            \
  X(nvmlDeviceGetTotalEccErrors, nvmlReturn_t, (nvmlDevice_t, int, int, unsigned long long*))                  \
  X(nvmlDeviceGetRemappedRows, nvmlReturn_t, (nvmlDevice_t, unsigned*, unsigned*, unsigned*, unsigned*))       \
  X(nvmlDeviceGetRetiredPages, nvmlReturn_t, (nvmlDevice_t, int, unsigned*, unsigned long long*))              \
  X(nvmlDeviceGetRetiredPagesPendingStatus, nvmlReturn_t, (nvmlDevice_t, int*))                                \
  X(nvmlDeviceGetClockInfo, nvmlReturn_t, (nvmlDevice_t, int, unsigned*))                                      \
  X(nvmlDeviceGetMaxClockInfo, nvmlReturn_t, (nvmlDevice_t, int, unsigned*))                                   \
  X(nvmlDeviceGetEnforcedPowerLimit, nvmlReturn_t, (nvmlDevice_t, unsigned*))                                  \
  X(nvmlDeviceGetPowerManagementLimitConstraints, nvmlReturn_t, (nvmlDevice_t, unsigned*, unsigned*))          \
  X(nvmlDeviceGetPowerUsage, nvmlReturn_t, (nvmlDevice_t, unsigned*))                                          \
  X(nvmlDeviceGetTemperature, nvmlReturn_t, (nvmlDevice_t, int, unsigned*))                                    \
  X(nvmlDeviceGetTemperatureThreshold, nvmlReturn_t, (nvmlDevice_t, int, unsigned*))                           \
  X(nvmlDeviceGetGpuFabricInfo, nvmlReturn_t, (nvmlDevice_t, GpuFabricInfo*))                                  \
  X(nvmlDeviceGetPersistenceMode, nvmlReturn_t, (nvmlDevice_t, int*))                                          \
  X(nvmlDeviceGetMigMode, nvmlReturn_t, (nvmlDevice_t, unsigned*, unsigned*))

struct Api {
#define GPUCHECK_NVML_DECLARE(name, ret, params) ret(*name) params = nullptr;
  GPUCHECK_NVML_HEALTH_ENTRY_POINTS(GPUCHECK_NVML_DECLARE)
#undef GPUCHECK_NVML_DECLARE
  // The newer name where the driver has it (R535), else the older one; same bits.
  nvmlReturn_t (*reasons)(nvmlDevice_t, unsigned long long*) = nullptr;
  std::string error(nvmlReturn_t r) const {
    const char* s = nvmlErrorString ? nvmlErrorString(r) : nullptr;
    return std::to_string(r) + (s ? " (" + std::string(s) + ")" : "");
  }
};

constexpr const char* kRequired[] = {"nvmlInit_v2", "nvmlShutdown", "nvmlDeviceGetCount_v2", "nvmlDeviceGetHandleByIndex_v2",
                                     "nvmlDeviceGetPciInfo_v3"};

const char* enabled(int v) { return v == kEnabled ? "Enabled" : "Disabled"; }

// nvidia-smi's words for the fabric state (its -q -x <fabric><state>).
const char* fabric_state(unsigned char s) {
  switch (s) {
    case kFabricNotStarted: return "Not Started";
    case kFabricInProgress: return "In Progress";
    case kFabricCompleted: return "Completed";
    default: return "N/A";
  }
}

// What NVML says of one GPU, keyed as the facts' SmiGpu fields are.
json describe(const Api& api, nvmlDevice_t dev) {
  json d;
  char buf[128] = {};
  if (api.nvmlDeviceGetName && api.nvmlDeviceGetName(dev, buf, sizeof buf) == kSuccess) d["product_name"] = std::string(buf);
  if (api.nvmlDeviceGetUUID && api.nvmlDeviceGetUUID(dev, buf, sizeof buf) == kSuccess) d["uuid"] = std::string(buf);
  if (Memory m{}; api.nvmlDeviceGetMemoryInfo && api.nvmlDeviceGetMemoryInfo(dev, &m) == kSuccess) d["memory_total_mib"] = m.total >> 20;
  if (int cur = 0, pend = 0; api.nvmlDeviceGetEccMode && api.nvmlDeviceGetEccMode(dev, &cur, &pend) == kSuccess) {
    d["ecc_mode_current"] = enabled(cur);
    d["ecc_mode_pending"] = enabled(pend);
  }
  const auto ecc = [&](int type, int counter, const char* key) {
    unsigned long long n = 0;
    if (api.nvmlDeviceGetTotalEccErrors && api.nvmlDeviceGetTotalEccErrors(dev, type, counter, &n) == kSuccess) d[key] = n;
  };
  ecc(kErrorCorrected, kVolatileEcc, "ecc_volatile_corrected");
  ecc(kErrorUncorrected, kVolatileEcc, "ecc_volatile_uncorrected");
  ecc(kErrorCorrected, kAggregateEcc, "ecc_aggregate_corrected");
  ecc(kErrorUncorrected, kAggregateEcc, "ecc_aggregate_uncorrected");
  if (unsigned corr = 0, unc = 0, pending = 0, failed = 0;
      api.nvmlDeviceGetRemappedRows && api.nvmlDeviceGetRemappedRows(dev, &corr, &unc, &pending, &failed) == kSuccess) {
    d["remapped_rows_correctable"] = corr;
    d["remapped_rows_uncorrectable"] = unc;
    d["remapped_rows_pending"] = pending != 0;
    d["remapped_rows_failure"] = failed != 0;
  }
  // A count is asked with no room for addresses: NVML answers the count.
  const auto retired = [&](int cause, const char* key) {
    unsigned n = 0;
    const nvmlReturn_t r = api.nvmlDeviceGetRetiredPages ? api.nvmlDeviceGetRetiredPages(dev, cause, &n, nullptr) : kNotSupported;
    if (r == kSuccess || r == 7 /* NVML_ERROR_INSUFFICIENT_SIZE */) d[key] = n;
  };
  retired(kRetiredMultipleSingleBit, "retired_pages_single_bit");
  retired(kRetiredDoubleBit, "retired_pages_double_bit");
  if (int p = 0; api.nvmlDeviceGetRetiredPagesPendingStatus && api.nvmlDeviceGetRetiredPagesPendingStatus(dev, &p) == kSuccess)
    d["retired_pages_pending"] = p == kEnabled;
  const auto clock = [&](auto fn, int type, const char* key) {
    unsigned mhz = 0;
    if (fn && fn(dev, type, &mhz) == kSuccess) d[key] = mhz;
  };
  clock(api.nvmlDeviceGetClockInfo, kClockGraphics, "clock_graphics_mhz");
  clock(api.nvmlDeviceGetClockInfo, kClockSm, "clock_sm_mhz");
  clock(api.nvmlDeviceGetClockInfo, kClockMem, "clock_mem_mhz");
  clock(api.nvmlDeviceGetMaxClockInfo, kClockGraphics, "clock_graphics_max_mhz");
  clock(api.nvmlDeviceGetMaxClockInfo, kClockSm, "clock_sm_max_mhz");
  clock(api.nvmlDeviceGetMaxClockInfo, kClockMem, "clock_mem_max_mhz");
  if (unsigned long long mask = 0; api.reasons && api.reasons(dev, &mask) == kSuccess) d["clock_event_reasons"] = mask;
  if (unsigned mw = 0; api.nvmlDeviceGetEnforcedPowerLimit && api.nvmlDeviceGetEnforcedPowerLimit(dev, &mw) == kSuccess)
    d["power_limit_w"] = mw / 1000.0;
  if (unsigned lo = 0, hi = 0; api.nvmlDeviceGetPowerManagementLimitConstraints &&
                               api.nvmlDeviceGetPowerManagementLimitConstraints(dev, &lo, &hi) == kSuccess)
    d["power_max_limit_w"] = hi / 1000.0;
  if (unsigned mw = 0; api.nvmlDeviceGetPowerUsage && api.nvmlDeviceGetPowerUsage(dev, &mw) == kSuccess) d["power_draw_w"] = mw / 1000.0;
  if (unsigned c = 0; api.nvmlDeviceGetTemperature && api.nvmlDeviceGetTemperature(dev, kTemperatureGpu, &c) == kSuccess)
    d["temperature_c"] = c;
  const auto threshold = [&](int which, const char* key) {
    unsigned c = 0;
    if (api.nvmlDeviceGetTemperatureThreshold && api.nvmlDeviceGetTemperatureThreshold(dev, which, &c) == kSuccess) d[key] = c;
  };
  threshold(kThresholdSlowdown, "temperature_slowdown_c");
  threshold(kThresholdShutdown, "temperature_shutdown_c");
  if (GpuFabricInfo f{}; api.nvmlDeviceGetGpuFabricInfo && api.nvmlDeviceGetGpuFabricInfo(dev, &f) == kSuccess &&
                         f.state != kFabricNotSupported) {
    d["fabric_state"] = fabric_state(f.state);
    if (f.state == kFabricCompleted) d["fabric_status"] = f.status == kSuccess ? "Success" : api.error(f.status);
  }
  if (int p = 0; api.nvmlDeviceGetPersistenceMode && api.nvmlDeviceGetPersistenceMode(dev, &p) == kSuccess)
    d["persistence_mode"] = enabled(p);
  if (unsigned cur = 0, pend = 0; api.nvmlDeviceGetMigMode && api.nvmlDeviceGetMigMode(dev, &cur, &pend) == kSuccess) {
    d["mig_mode_current"] = enabled(static_cast<int>(cur));
    d["mig_mode_pending"] = enabled(static_cast<int>(pend));
  }
  return d;
}

// Runs in the child. Prints one JSON object: the answers, or where it stopped.
std::string query_nvml(const std::vector<std::string>& candidates) {
  auto lib = DynamicLibrary::open(candidates);
  if (!lib) return dump_json(json{{"load_error", lib.problem().detail}});
  json out{{"library", lib->opened()}};
  Api api;
#define GPUCHECK_SLOT(name, ret, params) SymbolSlot{#name, &api.name},
  const auto missing = resolve_symbols(*lib, {GPUCHECK_NVML_HEALTH_ENTRY_POINTS(GPUCHECK_SLOT)});
#undef GPUCHECK_SLOT
  if (!resolve_symbols(*lib, {{"nvmlDeviceGetCurrentClocksEventReasons", &api.reasons}}).empty())
    resolve_symbols(*lib, {{"nvmlDeviceGetCurrentClocksThrottleReasons", &api.reasons}});
  out["missing_symbols"] = missing;
  for (const char* needed : kRequired)
    if (std::find(missing.begin(), missing.end(), needed) != missing.end()) return dump_json(out);
  const nvmlReturn_t init = api.nvmlInit_v2();
  out["init_code"] = init;
  if (init != kSuccess) {
    out["init_error"] = api.error(init);
    return dump_json(out);
  }
  char version[96] = {};
  if (api.nvmlSystemGetDriverVersion && api.nvmlSystemGetDriverVersion(version, sizeof version) == kSuccess)
    out["driver_version"] = std::string(version);
  if (int cuda = 0; api.nvmlSystemGetCudaDriverVersion && api.nvmlSystemGetCudaDriverVersion(&cuda) == kSuccess && cuda > 0)
    out["cuda_version"] = cuda;
  list_nvml_devices({api.nvmlDeviceGetCount_v2, api.nvmlDeviceGetHandleByIndex_v2, api.nvmlDeviceGetPciInfo_v3,
                     [&](nvmlReturn_t r) { return api.error(r); }},
                    [&](nvmlDevice_t dev) { return describe(api, dev); }, out);
  api.nvmlShutdown();
  return dump_json(out);
}

template <class T>
void set(std::optional<T>& field, const json& d, const char* key) {
  if (auto v = json_field<T>(d, key)) field = *v;
}

SmiGpu gpu_of(const json& d) {
  SmiGpu g;
  g.pci_bus_id = normalize_pci_bus_id(json_field<std::string>(d, "pci_bus_id").value_or(""));
  set(g.product_name, d, "product_name");
  set(g.uuid, d, "uuid");
  set(g.memory_total_mib, d, "memory_total_mib");
  set(g.ecc_mode_current, d, "ecc_mode_current");
  set(g.ecc_mode_pending, d, "ecc_mode_pending");
  set(g.ecc_volatile.corrected, d, "ecc_volatile_corrected");
  set(g.ecc_volatile.uncorrected, d, "ecc_volatile_uncorrected");
  set(g.ecc_aggregate.corrected, d, "ecc_aggregate_corrected");
  set(g.ecc_aggregate.uncorrected, d, "ecc_aggregate_uncorrected");
  set(g.remapped_rows_correctable, d, "remapped_rows_correctable");
  set(g.remapped_rows_uncorrectable, d, "remapped_rows_uncorrectable");
  set(g.remapped_rows_pending, d, "remapped_rows_pending");
  set(g.remapped_rows_failure, d, "remapped_rows_failure");
  set(g.retired_pages_single_bit, d, "retired_pages_single_bit");
  set(g.retired_pages_double_bit, d, "retired_pages_double_bit");
  set(g.retired_pages_pending, d, "retired_pages_pending");
  set(g.clock_graphics_mhz, d, "clock_graphics_mhz");
  set(g.clock_sm_mhz, d, "clock_sm_mhz");
  set(g.clock_mem_mhz, d, "clock_mem_mhz");
  set(g.clock_graphics_max_mhz, d, "clock_graphics_max_mhz");
  set(g.clock_sm_max_mhz, d, "clock_sm_max_mhz");
  set(g.clock_mem_max_mhz, d, "clock_mem_max_mhz");
  if (auto mask = json_field<std::uint64_t>(d, "clock_event_reasons"))
    for (const auto& name : clock_event_names(*mask)) g.clock_event_reasons[name] = true;
  set(g.power_limit_w, d, "power_limit_w");
  set(g.power_max_limit_w, d, "power_max_limit_w");
  set(g.power_draw_w, d, "power_draw_w");
  set(g.temperature_c, d, "temperature_c");
  set(g.temperature_slowdown_c, d, "temperature_slowdown_c");
  set(g.temperature_shutdown_c, d, "temperature_shutdown_c");
  set(g.fabric_state, d, "fabric_state");
  set(g.fabric_status, d, "fabric_status");
  set(g.persistence_mode, d, "persistence_mode");
  set(g.mig_mode_current, d, "mig_mode_current");
  set(g.mig_mode_pending, d, "mig_mode_pending");
  return g;
}

}  // namespace

const IsolatedEntry kNvmlCall{kCallKey, query_nvml};

void health_from_nvml(ProbeContext& ctx) {
  const auto& lib = ctx.facts().nvidia_driver.libnvidia_ml;
  // No NVIDIA driver here at all: nothing to ask, and nothing unread.
  if (!gpu_host_evidence(ctx.facts()).nvidia_host()) return;
  if (!lib.path) {
    ctx.note("nvml", "NVML", Problem{Reason::absent, "libnvidia-ml.so.1", "no libnvidia-ml.so.1 to load"});
    return;
  }
  const Millis deadline = ctx.deadline().cap(ctx.options().driver_timeout);
  const auto parsed = child_answer(
      ctx, ChildCall{"nvml", "NVML", kCallKey, *lib.path, "NVML did not answer within " + std::to_string(deadline.count()) + " ms"},
      ctx.host().isolated_call(IsolatedCall{kCallKey, {*lib.path, "libnvidia-ml.so.1"}}, deadline));
  if (!parsed) return;
  const json& j = *parsed;
  const std::string library = json_field<std::string>(j, "library").value_or(*lib.path);
  const auto devs = nvml_answer_devices(ctx, "nvml", j, library);
  if (!devs) return;
  NvidiaSmiFacts s;
  s.source = "NVML (" + library + ")";
  s.driver_version = json_field<std::string>(j, "driver_version");
  if (auto v = Version::from_cuda_int(json_field<long long>(j, "cuda_version").value_or(0))) s.cuda_version = v->text();
  for (const json* d : *devs) s.gpus.push_back(gpu_of(*d));
  ctx.facts().nvidia_smi = std::move(s);
}

}  // namespace gpucheck
