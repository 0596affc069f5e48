// The CUDA Driver API entry points the driver probe calls, enough to ask a
// driver what it is and what it sees (types: host/cuda_driver_types.hpp).
#pragma once

#include <cstddef>

#include "host/cuda_driver_types.hpp"

namespace gpucheck::cuda {

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
