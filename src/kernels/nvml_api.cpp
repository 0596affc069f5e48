// NVML through dlopen: see nvml_api.hpp.
#include "kernels/nvml_api.hpp"

#include <cstdio>
#include <utility>

namespace gpucheck::kernels::nvml {

Telemetry::Telemetry(const std::vector<std::string>& candidates, const std::string& pci_bus_id) {
  auto lib = DynamicLibrary::open(candidates);
  if (!lib) {
    why_ = "no NVML (libnvidia-ml.so.1) to load, so no clocks, temperature, power or clock-event reasons: " +
           lib.problem().detail;
    return;
  }
  lib_.emplace(std::move(lib).value());
  std::string missing;
#define GPUCHECK_NVML_RESOLVE(name, ret, params)                                 \
  api_.name = reinterpret_cast<ret(*) params>(lib_->symbol(#name));              \
  if (!api_.name) missing += (missing.empty() ? "" : ", ") + std::string(#name);
  GPUCHECK_NVML_ENTRY_POINTS(GPUCHECK_NVML_RESOLVE)
#undef GPUCHECK_NVML_RESOLVE
  using ReasonsFn = nvmlReturn_t (*)(nvmlDevice_t, unsigned long long*);
  api_.reasons = reinterpret_cast<ReasonsFn>(lib_->symbol("nvmlDeviceGetCurrentClocksEventReasons"));
  if (!api_.reasons) api_.reasons = reinterpret_cast<ReasonsFn>(lib_->symbol("nvmlDeviceGetCurrentClocksThrottleReasons"));
  if (!api_.reasons) missing += (missing.empty() ? "" : ", ") + std::string("nvmlDeviceGetCurrentClocksThrottleReasons");
  if (!missing.empty()) {
    why_ = lib_->opened() + " lacks entry points the samples need: " + missing;
    return;
  }
  if (const nvmlReturn_t r = api_.nvmlInit_v2(); r != 0) {
    why_ = "nvmlInit_v2 returned " + error(r);
    return;
  }
  initialised_ = true;
  nvmlDevice_t dev = nullptr;
  if (const nvmlReturn_t r = api_.nvmlDeviceGetHandleByPciBusId_v2(pci_bus_id.c_str(), &dev); r != 0 || !dev) {
    why_ = "nvmlDeviceGetHandleByPciBusId_v2(" + pci_bus_id + ") returned " + error(r);
    return;
  }
  device_ = dev;
}

Telemetry::~Telemetry() {
  if (initialised_) api_.nvmlShutdown();
}

std::string Telemetry::error(nvmlReturn_t r) const {
  const char* s = api_.nvmlErrorString ? api_.nvmlErrorString(r) : nullptr;
  return std::to_string(r) + (s ? " (" + std::string(s) + ")" : "");
}

Reading Telemetry::read() const {
  Reading out;
  if (!device_) return out;
  unsigned int v = 0;
  if (api_.nvmlDeviceGetClockInfo(device_, kClockSm, &v) == 0) out.sm_clock_mhz = static_cast<int>(v);
  if (api_.nvmlDeviceGetClockInfo(device_, kClockMem, &v) == 0) out.mem_clock_mhz = static_cast<int>(v);
  if (api_.nvmlDeviceGetTemperature(device_, kTemperatureGpu, &v) == 0) out.temperature_c = static_cast<int>(v);
  if (api_.nvmlDeviceGetPowerUsage(device_, &v) == 0) out.power_w = v / 1000.0;  // NVML reports milliwatts
  unsigned long long mask = 0;
  if (api_.reasons(device_, &mask) == 0) out.reasons = mask;
  return out;
}

// Bits as defined in nvml.h (NvmlClocksEventReasons,
// https://docs.nvidia.com/deploy/nvml-api/group__nvmlClocksEventReasons.html).
std::vector<std::string> clock_event_names(std::uint64_t mask) {
  static const std::pair<std::uint64_t, const char*> kNames[] = {
      {0x1, "gpu_idle"},          {0x2, "applications_clocks_setting"}, {0x4, "sw_power_cap"},
      {0x8, "hw_slowdown"},       {0x10, "sync_boost"},                 {0x20, "sw_thermal_slowdown"},
      {0x40, "hw_thermal_slowdown"}, {0x80, "hw_power_brake_slowdown"}, {0x100, "display_clock_setting"}};
  std::vector<std::string> out;
  for (auto& [bit, name] : kNames)
    if (mask & bit) {
      out.push_back(name);
      mask &= ~bit;
    }
  for (int b = 0; b < 64 && mask; ++b)
    if (mask & (std::uint64_t{1} << b)) {
      char buf[32];
      std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(std::uint64_t{1} << b));
      out.push_back(buf);
      mask &= ~(std::uint64_t{1} << b);
    }
  return out;
}

}  // namespace gpucheck::kernels::nvml
