// The CUDA Driver API entry points the kernel checks call, once, as an
// X-macro: X(name, return, parameters), with the signatures of NVIDIA's cuda.h
// (https://docs.nvidia.com/cuda/cuda-driver-api/); libcuda is only ever
// dlopen'ed, in a child process. Shared types: host/cuda_driver_types.hpp.
#pragma once

#include <cstddef>
#include <string>

#include "host/cuda_driver_types.hpp"
#include "host/dynamic_library.hpp"
#include "host/symbol_table.hpp"
#include "util/strings.hpp"

namespace gpucheck::kernels::cu {

using cuda::CUdevice;
using cuda::CUresult;
using cuda::CUuuid;
using cuda::kAttrComputeCapabilityMajor;
using cuda::kAttrComputeCapabilityMinor;
using cuda::kAttrMultiprocessorCount;
using CUdeviceptr = unsigned long long;
struct CUctx_st;
struct CUmod_st;
struct CUfunc_st;
struct CUevent_st;
struct CUstream_st;
using CUcontext = CUctx_st*;
using CUmodule = CUmod_st*;
using CUfunction = CUfunc_st*;
using CUevent = CUevent_st*;
using CUstream = CUstream_st*;
using CUjit_option = int;

// CUjit_option values (cuda.h).
inline constexpr CUjit_option kJitInfoLogBuffer = 3;
inline constexpr CUjit_option kJitInfoLogBufferSize = 4;
inline constexpr CUjit_option kJitErrorLogBuffer = 5;
inline constexpr CUjit_option kJitErrorLogBufferSize = 6;

#define GPUCHECK_KERNEL_ENTRY_POINTS(X)                                                               \
  X(cuInit, CUresult, (unsigned int))                                                                 \
  X(cuDriverGetVersion, CUresult, (int*))                                                             \
  X(cuGetErrorName, CUresult, (CUresult, const char**))                                               \
  X(cuDeviceGetCount, CUresult, (int*))                                                               \
  X(cuDeviceGet, CUresult, (CUdevice*, int))                                                          \
  X(cuDeviceGetName, CUresult, (char*, int, CUdevice))                                                \
  X(cuDeviceGetUuid, CUresult, (CUuuid*, CUdevice))                                                   \
  X(cuDeviceGetAttribute, CUresult, (int*, int, CUdevice))                                            \
  X(cuDeviceGetPCIBusId, CUresult, (char*, int, CUdevice))                                            \
  X(cuDevicePrimaryCtxRetain, CUresult, (CUcontext*, CUdevice))                                       \
  X(cuDevicePrimaryCtxRelease_v2, CUresult, (CUdevice))                                               \
  X(cuCtxSetCurrent, CUresult, (CUcontext))                                                           \
  X(cuCtxSynchronize, CUresult, ())                                                                   \
  X(cuModuleLoadDataEx, CUresult, (CUmodule*, const void*, unsigned int, CUjit_option*, void**))      \
  X(cuModuleGetFunction, CUresult, (CUfunction*, CUmodule, const char*))                              \
  X(cuModuleUnload, CUresult, (CUmodule))                                                             \
  X(cuMemAlloc_v2, CUresult, (CUdeviceptr*, std::size_t))                                             \
  X(cuMemFree_v2, CUresult, (CUdeviceptr))                                                            \
  X(cuMemAllocHost_v2, CUresult, (void**, std::size_t))                                               \
  X(cuMemFreeHost, CUresult, (void*))                                                                 \
  X(cuMemcpyHtoD_v2, CUresult, (CUdeviceptr, const void*, std::size_t))                               \
  X(cuMemcpyDtoH_v2, CUresult, (void*, CUdeviceptr, std::size_t))                                    \
  X(cuMemsetD32_v2, CUresult, (CUdeviceptr, unsigned int, std::size_t))                               \
  X(cuLaunchKernel, CUresult,                                                                         \
    (CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, CUstream, void**, \
     void**))                                                                                         \
  X(cuEventCreate, CUresult, (CUevent*, unsigned int))                                                \
  X(cuEventRecord, CUresult, (CUevent, CUstream))                                                     \
  X(cuEventSynchronize, CUresult, (CUevent))                                                          \
  X(cuEventElapsedTime, CUresult, (float*, CUevent, CUevent))                                         \
  X(cuEventDestroy_v2, CUresult, (CUevent))

struct Api {
#define GPUCHECK_DECLARE(name, ret, params) ret(*name) params = nullptr;
  GPUCHECK_KERNEL_ENTRY_POINTS(GPUCHECK_DECLARE)
#undef GPUCHECK_DECLARE
  // "CUDA_ERROR_ILLEGAL_ADDRESS", or the number when the driver cannot name it.
  std::string error_name(CUresult r) const {
    const char* s = nullptr;
    if (cuGetErrorName && cuGetErrorName(r, &s) == 0 && s) return s;
    return "CUresult " + std::to_string(r);
  }
};

// Resolves every entry point; the names it could not find, comma-separated.
inline std::string resolve(const DynamicLibrary& lib, Api& api) {
#define GPUCHECK_SLOT(name, ret, params) SymbolSlot{#name, &api.name},
  return join(resolve_symbols(lib, {GPUCHECK_KERNEL_ENTRY_POINTS(GPUCHECK_SLOT)}), ", ");
#undef GPUCHECK_SLOT
}

}  // namespace gpucheck::kernels::cu
