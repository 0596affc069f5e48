// NVML through dlopen: see nvml_api.hpp.
#include "kernels/nvml_api.hpp"

#include <utility>

#include "host/symbol_table.hpp"
#include "util/strings.hpp"

namespace gpucheck::kernels::nvml {

Telemetry::Telemetry(const std::vector<std::string>& candidates, const std::string& pci_bus_id) {
  auto lib = DynamicLibrary::open(candidates);
  if (!lib) {
    why_ = "no NVML (libnvidia-ml.so.1) to load, so no clocks, temperature, power or clock-event reasons: " +
           lib.problem().detail;
    return;
  }
  lib_.emplace(std::move(lib).value());
#define GPUCHECK_NVML_SLOT(name, ret, params) SymbolSlot{#name, &api_.name},
  std::vector<std::string> missing = resolve_symbols(*lib_, {GPUCHECK_NVML_ENTRY_POINTS(GPUCHECK_NVML_SLOT)});
#undef GPUCHECK_NVML_SLOT
  // Api::reasons: the newer name, else the older one every driver since R418
  // exports, which is the one named when neither is there.
  if (!resolve_symbols(*lib_, {{"nvmlDeviceGetCurrentClocksEventReasons", &api_.reasons}}).empty()) {
    const auto older = resolve_symbols(*lib_, {{"nvmlDeviceGetCurrentClocksThrottleReasons", &api_.reasons}});
    missing.insert(missing.end(), older.begin(), older.end());
  }
  // Either, both or neither: a missing one stays null.
  resolve_symbols(*lib_, {{"nvmlDeviceGetTemperatureV", &api_.temperature_v},
                          {"nvmlDeviceGetTemperature", &api_.temperature}});
  if (!missing.empty()) {
    why_ = lib_->opened() + " lacks entry points the samples need: " + join(missing, ", ");
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
  // The older call also when the newer one fails: a driver may export a
  // function it does not support for every device.
  if (Temperature t{kTemperatureV1, kTemperatureGpu, 0}; api_.temperature_v && api_.temperature_v(device_, &t) == 0)
    out.temperature_c = t.temperature;
  else if (api_.temperature && api_.temperature(device_, kTemperatureGpu, &v) == 0)
    out.temperature_c = static_cast<int>(v);
  if (api_.nvmlDeviceGetPowerUsage(device_, &v) == 0) out.power_w = v / 1000.0;  // NVML reports milliwatts
  unsigned long long mask = 0;
  if (api_.reasons(device_, &mask) == 0) out.reasons = mask;
  return out;
}

}  // namespace gpucheck::kernels::nvml
