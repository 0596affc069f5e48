// A test double for NVML (libnvidia-ml.so.1), for the sustained mode's
// samples (src/kernels/nvml_api.hpp). It measures nothing: every reading is a
// fixed, made-up value (see README.md), so tests can tell a sample that went
// through NVML from one that did not. C linkage, signatures of nvml.h.
// Codes and enum values as nvml.h defines them (NVIDIA's copy in
// github.com/NVIDIA/go-nvml, gen/nvml/nvml.h, commit 2f9e261f; listed in
// https://docs.nvidia.com/deploy/nvml-api/group__nvmlDeviceEnumvs.html).
#include <cstdlib>
#include <cstring>

extern "C" {

struct nvmlDevice_st {
  int unused;
};
using nvmlDevice_t = nvmlDevice_st*;

namespace {
nvmlDevice_st the_device{0};
bool initialised = false;
unsigned temperature = 60;
// nvmlReturn_t: NVML_SUCCESS, NVML_ERROR_UNINITIALIZED, NVML_ERROR_INVALID_ARGUMENT, NVML_ERROR_NOT_FOUND.
constexpr int kSuccess = 0, kUninitialized = 1, kInvalidArgument = 2, kNotFound = 6;
}  // namespace

__attribute__((visibility("default"))) int nvmlInit_v2() {
  initialised = true;
  return kSuccess;
}

__attribute__((visibility("default"))) int nvmlShutdown() {
  if (!initialised) return kUninitialized;
  initialised = false;
  return kSuccess;
}

__attribute__((visibility("default"))) const char* nvmlErrorString(int r) {
  switch (r) {
    case kSuccess: return "Success";
    case kUninitialized: return "Uninitialized";
    case kInvalidArgument: return "Invalid Argument";
    case kNotFound: return "Not Found";
    default: return "Unknown Error";
  }
}

__attribute__((visibility("default"))) int nvmlDeviceGetHandleByPciBusId_v2(const char* bus, nvmlDevice_t* dev) {
  if (!initialised) return kUninitialized;
  if (!bus || !dev) return kInvalidArgument;
  if (!*bus) return kNotFound;
  *dev = &the_device;
  return kSuccess;
}

__attribute__((visibility("default"))) int nvmlDeviceGetClockInfo(nvmlDevice_t dev, int type, unsigned* mhz) {
  if (!initialised) return kUninitialized;
  if (dev != &the_device || !mhz) return kInvalidArgument;
  if (type == 1) *mhz = 1980;  // NVML_CLOCK_SM
  else if (type == 2) *mhz = 2619;  // NVML_CLOCK_MEM
  else return kInvalidArgument;
  return kSuccess;
}

// Rises one degree a reading, so a test can see the highest one reported.
__attribute__((visibility("default"))) int nvmlDeviceGetTemperature(nvmlDevice_t dev, int sensor, unsigned* c) {
  if (!initialised) return kUninitialized;
  if (dev != &the_device || sensor != 0 || !c) return kInvalidArgument;  // 0: NVML_TEMPERATURE_GPU
  *c = temperature++;
  return kSuccess;
}

// nvmlTemperature_v1_t; its version is NVML_STRUCT_VERSION(Temperature, 1).
struct nvmlTemperature_v1_t {
  unsigned version;
  int sensorType;
  int temperature;
};

// The same readings 100 degrees up, so a test can tell which call gave them;
// NVML_ERROR_NOT_SUPPORTED (3) when FAKE_NVML_NO_TEMPERATURE_V is set, as a
// driver that exports the call but does not support it for the device.
__attribute__((visibility("default"))) int nvmlDeviceGetTemperatureV(nvmlDevice_t dev, nvmlTemperature_v1_t* t) {
  if (!initialised) return kUninitialized;
  if (std::getenv("FAKE_NVML_NO_TEMPERATURE_V")) return 3;
  if (dev != &the_device || !t || t->version != (sizeof(nvmlTemperature_v1_t) | (1u << 24)) || t->sensorType != 0)
    return kInvalidArgument;
  t->temperature = static_cast<int>(temperature++) + 100;
  return kSuccess;
}

__attribute__((visibility("default"))) int nvmlDeviceGetPowerUsage(nvmlDevice_t dev, unsigned* mw) {
  if (!initialised) return kUninitialized;
  if (dev != &the_device || !mw) return kInvalidArgument;
  *mw = 512250;
  return kSuccess;
}

// Both names, with different answers, so a test can tell which one was used.
// Bits: https://docs.nvidia.com/deploy/nvml-api/group__nvmlClocksEventReasons.html
// (0x1 GpuIdle, 0x4 SwPowerCap, 0x20 SwThermalSlowdown).
__attribute__((visibility("default"))) int nvmlDeviceGetCurrentClocksThrottleReasons(nvmlDevice_t dev,
                                                                                    unsigned long long* mask) {
  if (!initialised) return kUninitialized;
  if (dev != &the_device || !mask) return kInvalidArgument;
  *mask = 0x1;  // gpu_idle
  return kSuccess;
}

__attribute__((visibility("default"))) int nvmlDeviceGetCurrentClocksEventReasons(nvmlDevice_t dev,
                                                                                 unsigned long long* mask) {
  if (!initialised) return kUninitialized;
  if (dev != &the_device || !mask) return kInvalidArgument;
  *mask = 0x24;  // sw_power_cap | sw_thermal_slowdown
  return kSuccess;
}

}  // extern "C"
