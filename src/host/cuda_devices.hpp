// The CUDA devices as the driver lists them, asked one way by both callers
// of libcuda (the driver probe's isolated call and the kernel checks'
// child), so the two cannot see a different list or spell a field apart.
// Runs in a child process only: it calls into libcuda.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "host/cuda_driver_types.hpp"
#include "host/cuda_entry_points.hpp"

namespace gpucheck::cuda {

// The query entry points (GPUCHECK_CUDA_QUERY_ENTRY_POINTS); any may be null
// when the library lacks it.
struct QueryApi {
#define GPUCHECK_DECLARE(name, ret, params) ret(*name) params = nullptr;
  GPUCHECK_CUDA_QUERY_ENTRY_POINTS(GPUCHECK_DECLARE)
#undef GPUCHECK_DECLARE
  // "CUDA_ERROR_ILLEGAL_ADDRESS", or the number when the driver cannot name it.
  std::string error_name(CUresult r) const;
};

// nvidia-smi's spelling of a device UUID: GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx.
std::string uuid_text(const CUuuid& uuid);

// After a successful cuInit: {"devices": [...]}, one object a device with
// "ordinal" and what the driver answered of "name", "uuid",
// "compute_capability" ("9.0"), "sm_count", "memory_bytes" and "pci_bus_id";
// a device cuDeviceGet refused is {"ordinal", "error"}. "count_error" when
// cuDeviceGetCount failed. A library without the count or get entry points
// lists none.
nlohmann::json list_devices(const QueryApi& api);

}  // namespace gpucheck::cuda
