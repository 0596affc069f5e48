// The CUDA Driver API as the kernel checks call it: the types of the compute
// entry points and a table of every entry point (host/cuda_entry_points.hpp);
// libcuda is only ever dlopen'ed, in a child process. Shared types:
// host/cuda_driver_types.hpp.
#pragma once

#include <cstddef>
#include <string>

#include "host/cuda_driver_types.hpp"
#include "host/cuda_devices.hpp"
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

// The queries (with error_name) of the driver probe, and the compute calls.
struct Api : cuda::QueryApi {
#define GPUCHECK_DECLARE(name, ret, params) ret(*name) params = nullptr;
  GPUCHECK_CUDA_COMPUTE_ENTRY_POINTS(GPUCHECK_DECLARE)
#undef GPUCHECK_DECLARE
};

// Resolves every entry point; the names it could not find, comma-separated.
inline std::string resolve(const DynamicLibrary& lib, Api& api) {
#define GPUCHECK_SLOT(name, ret, params) SymbolSlot{#name, &api.name},
  return join(resolve_symbols(lib, {GPUCHECK_CUDA_KERNEL_ENTRY_POINTS(GPUCHECK_SLOT)}), ", ");
#undef GPUCHECK_SLOT
}

}  // namespace gpucheck::kernels::cu
