// The CUDA Driver API entry points gpucheck calls, once, as X-macros:
// X(name, return, parameters), with the signatures of NVIDIA's cuda.h
// (https://docs.nvidia.com/cuda/cuda-driver-api/). The driver probe asks the
// queries; the kernel checks need them and the compute calls; the fake
// libcuda (tests/fake_cuda) declares both from here, so a signature it gets
// wrong does not compile. Each user expands them where its types are in
// scope (host/cuda_driver_types.hpp, kernels/driver_api.hpp, the fake's).
#pragma once

#include <cstddef>

// What a driver is and what it sees: the driver probe's list.
#define GPUCHECK_CUDA_QUERY_ENTRY_POINTS(X)                                \
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

// Contexts, modules, memory, launches and events: the kernel checks' own.
#define GPUCHECK_CUDA_COMPUTE_ENTRY_POINTS(X)                                                         \
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
  X(cuEventDestroy_v2, CUresult, (CUevent))                                                          \
  X(cuDeviceCanAccessPeer, CUresult, (int*, CUdevice, CUdevice))                                      \
  X(cuCtxEnablePeerAccess, CUresult, (CUcontext, unsigned int))                                       \
  X(cuCtxDisablePeerAccess, CUresult, (CUcontext))                                                    \
  X(cuMemcpyPeerAsync, CUresult, (CUdeviceptr, CUcontext, CUdeviceptr, CUcontext, std::size_t, CUstream))

// Everything the kernel checks resolve, queries first.
#define GPUCHECK_CUDA_KERNEL_ENTRY_POINTS(X) GPUCHECK_CUDA_QUERY_ENTRY_POINTS(X) GPUCHECK_CUDA_COMPUTE_ENTRY_POINTS(X)
