// The NVML types and constants both callers of libnvidia-ml use (the
// driver-health probe and the kernel checks' samples), declared once: a
// clean-room minimum, never nvml.h, and the library is only ever dlopen'ed.
// Values, layouts and units as nvml.h defines them, read in NVIDIA's copy in
// github.com/NVIDIA/go-nvml, gen/nvml/nvml.h (commit 2f9e261f, NVML 13.3.29;
// the older copies of the same file date each entry point), and in NVIDIA's
// NVML API reference: nvmlReturn_t, nvmlClockType_t, nvmlTemperature*,
// nvmlMemoryErrorType_t, nvmlEccCounterType_t, nvmlEnableState_t
// https://docs.nvidia.com/deploy/nvml-api/group__nvmlDeviceEnumvs.html;
// nvmlPciInfo_t https://docs.nvidia.com/deploy/nvml-api/structnvmlPciInfo__t.html;
// the fabric states and nvmlGpuFabricInfo_t in nvml.h ("For Hopper or newer").
#pragma once

namespace gpucheck::nvml {

using nvmlReturn_t = int;
struct nvmlDevice_st;
using nvmlDevice_t = nvmlDevice_st*;

inline constexpr nvmlReturn_t kSuccess = 0;
inline constexpr nvmlReturn_t kNotSupported = 3;

// nvmlClockType_t (MHz).
inline constexpr int kClockGraphics = 0;
inline constexpr int kClockSm = 1;
inline constexpr int kClockMem = 2;
// nvmlTemperatureSensors_t and nvmlTemperatureThresholds_t (°C).
inline constexpr int kTemperatureGpu = 0;
inline constexpr int kThresholdShutdown = 0;
inline constexpr int kThresholdSlowdown = 1;
// nvmlMemoryErrorType_t and nvmlEccCounterType_t.
inline constexpr int kErrorCorrected = 0;
inline constexpr int kErrorUncorrected = 1;
inline constexpr int kVolatileEcc = 0;
inline constexpr int kAggregateEcc = 1;
// nvmlPageRetirementCause_t.
inline constexpr int kRetiredMultipleSingleBit = 0;
inline constexpr int kRetiredDoubleBit = 1;
// nvmlEnableState_t, and the MIG modes (the same 0 and 1).
inline constexpr int kDisabled = 0;
inline constexpr int kEnabled = 1;
// nvmlGpuFabricState_t.
inline constexpr unsigned char kFabricNotSupported = 0;
inline constexpr unsigned char kFabricNotStarted = 1;
inline constexpr unsigned char kFabricInProgress = 2;
inline constexpr unsigned char kFabricCompleted = 3;

// NVML_NVLINK_MAX_LINKS, and nvmlNvLinkErrorCounter_t's data-link-layer counters.
inline constexpr unsigned kNvLinkMaxLinks = 36;  // 18 before the CUDA 13.3 header: a driver answers INVALID_ARGUMENT past its own
inline constexpr int kNvLinkErrorReplay = 0;
inline constexpr int kNvLinkErrorRecovery = 1;
inline constexpr int kNvLinkErrorCrcFlit = 2;
inline constexpr int kNvLinkErrorCrcData = 3;

// nvmlPciInfo_t (68 bytes); busId is "%08X:%02X:%02X.0".
struct PciInfo {
  char busIdLegacy[16];
  unsigned int domain, bus, device, pciDeviceId, pciSubSystemId;
  char busId[32];
};

// nvmlMemory_t (v1, bytes).
struct Memory {
  unsigned long long total, free, used;
};

// nvmlGpuFabricInfo_t (v1, 28 bytes): `status` counts only when `state` is
// completed.
struct GpuFabricInfo {
  unsigned char clusterUuid[16];
  nvmlReturn_t status;
  unsigned int cliqueId;
  unsigned char state;
};

// nvmlTemperature_v1_t, and its version: nvml.h's NVML_STRUCT_VERSION, the
// struct's size with the version number in bits 24 and up.
struct Temperature {
  unsigned int version;
  int sensor_type;
  int temperature;
};
inline constexpr unsigned int kTemperatureV1 = sizeof(Temperature) | (1u << 24);

}  // namespace gpucheck::nvml
