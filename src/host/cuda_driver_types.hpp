// The CUDA Driver API types and constants that both callers of libcuda use
// (the driver probe and the kernel checks), declared once: a clean-room
// minimum with the values of NVIDIA's cuda.h
// (https://docs.nvidia.com/cuda/cuda-driver-api/). No SDK is needed to
// build; libcuda is only ever dlopen'ed.
#pragma once

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

}  // namespace gpucheck::cuda
