// NVML, loaded with dlopen (never linked) inside the kernel-check child, for
// the sustained mode's samples: clocks, temperature, power and clock-event
// (throttle) reasons under load. Every call runs in the child, so a driver
// that hangs here is caught by the same watchdog as a hung kernel.
// Types and values: host/nvml_types.hpp. Reason bits (0x1 gpu_idle … 0x100
// display_clock_setting)
// https://docs.nvidia.com/deploy/nvml-api/group__nvmlClocksEventReasons.html;
// nvmlDeviceGetClockInfo, nvmlDeviceGetTemperature(V), nvmlDeviceGetPowerUsage
// (milliwatts), nvmlDeviceGetCurrentClocksEventReasons
// https://docs.nvidia.com/deploy/nvml-api/group__nvmlDeviceQueries.html.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "host/dynamic_library.hpp"
#include "host/nvml_types.hpp"

namespace gpucheck::kernels::nvml {

using gpucheck::nvml::kClockMem;
using gpucheck::nvml::kClockSm;
using gpucheck::nvml::kTemperatureGpu;
using gpucheck::nvml::kTemperatureV1;
using gpucheck::nvml::nvmlDevice_t;
using gpucheck::nvml::nvmlReturn_t;
using gpucheck::nvml::Temperature;

// X(name, return, parameters): the entry points the samples need.
#define GPUCHECK_NVML_ENTRY_POINTS(X)                                                  \
  X(nvmlInit_v2, nvmlReturn_t, ())                                                     \
  X(nvmlShutdown, nvmlReturn_t, ())                                                    \
  X(nvmlErrorString, const char*, (nvmlReturn_t))                                      \
  X(nvmlDeviceGetHandleByPciBusId_v2, nvmlReturn_t, (const char*, nvmlDevice_t*))      \
  X(nvmlDeviceGetClockInfo, nvmlReturn_t, (nvmlDevice_t, int, unsigned int*))          \
  X(nvmlDeviceGetPowerUsage, nvmlReturn_t, (nvmlDevice_t, unsigned int*))

struct Api {
#define GPUCHECK_NVML_DECLARE(name, ret, params) ret(*name) params = nullptr;
  GPUCHECK_NVML_ENTRY_POINTS(GPUCHECK_NVML_DECLARE)
#undef GPUCHECK_NVML_DECLARE
  // nvmlDeviceGetCurrentClocksEventReasons where the driver has it (the newer
  // name), else nvmlDeviceGetCurrentClocksThrottleReasons (every driver since
  // R418); same signature and bits.
  nvmlReturn_t (*reasons)(nvmlDevice_t, unsigned long long*) = nullptr;
  // nvmlDeviceGetTemperatureV where the driver has it and it answers, else
  // nvmlDeviceGetTemperature, which NVML 13 marks deprecated in its favour;
  // with neither, samples have no temperature.
  nvmlReturn_t (*temperature_v)(nvmlDevice_t, Temperature*) = nullptr;
  nvmlReturn_t (*temperature)(nvmlDevice_t, int, unsigned int*) = nullptr;
};

// One reading; a field NVML would not give is absent.
struct Reading {
  std::optional<int> sm_clock_mhz, mem_clock_mhz, temperature_c;
  std::optional<double> power_w;
  std::optional<std::uint64_t> reasons;
};

// NVML opened for one device (by PCI bus id). When it cannot be, why() says
// why in words and read() gives nothing: the rates are still measured.
class Telemetry {
 public:
  Telemetry(const std::vector<std::string>& candidates, const std::string& pci_bus_id);
  ~Telemetry();
  Telemetry(const Telemetry&) = delete;
  Telemetry& operator=(const Telemetry&) = delete;

  bool ok() const { return device_ != nullptr; }
  const std::string& why() const { return why_; }
  Reading read() const;

 private:
  std::string error(nvmlReturn_t r) const;
  std::optional<DynamicLibrary> lib_;
  Api api_;
  bool initialised_ = false;
  nvmlDevice_t device_ = nullptr;
  std::string why_;
};

}  // namespace gpucheck::kernels::nvml
