// A clean-room minimum of the CUDA Driver API, enough to ask a driver what it
// is and what it sees: no SDK needed to build, and libcuda is only ever
// dlopen'ed. Signatures and enum values as documented in NVIDIA's CUDA Driver
// API reference (https://docs.nvidia.com/cuda/cuda-driver-api/).
#pragma once

#include <cstddef>

namespace gpucheck::cuda {

using CUresult = int;
using CUdevice = int;
struct CUuuid {
  char bytes[16];
};

// cuDeviceGetAttribute codes (CUdevice_attribute).
inline constexpr int kAttrMultiprocessorCount = 16;
inline constexpr int kAttrPciBusId = 33;
inline constexpr int kAttrPciDeviceId = 34;
inline constexpr int kAttrPciDomainId = 50;
inline constexpr int kAttrComputeCapabilityMajor = 75;
inline constexpr int kAttrComputeCapabilityMinor = 76;

// Every entry point we use, once: X(name, return, parameters).
#define GPUCHECK_CUDA_ENTRY_POINTS(X)                                      \
  X(cuInit, CUresult, (unsigned int))                                      \
  X(cuDriverGetVersion, CUresult, (int*))                                  \
  X(cuGetErrorName, CUresult, (CUresult, const char**))                    \
  X(cuGetErrorString, CUresult, (CUresult, const char**))                  \
  X(cuDeviceGetCount, CUresult, (int*))                                    \
  X(cuDeviceGet, CUresult, (CUdevice*, int))                               \
  X(cuDeviceGetName, CUresult, (char*, int, CUdevice))                     \
  X(cuDeviceGetUuid, CUresult, (CUuuid*, CUdevice))                        \
  X(cuDeviceGetAttribute, CUresult, (int*, int, CUdevice))                 \
  X(cuDeviceTotalMem_v2, CUresult, (std::size_t*, CUdevice))               \
  X(cuDeviceGetPCIBusId, CUresult, (char*, int, CUdevice))

}  // namespace gpucheck::cuda
