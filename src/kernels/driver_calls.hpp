// What the child's steps share when they call the CUDA driver: every call
// checked (the first failure ends the step), memory and events freed
// however a step ends, and libcuda loaded and initialised. Child side only.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "facts/kernel_vocabulary.hpp"
#include "host/dynamic_library.hpp"
#include "kernels/driver_api.hpp"

namespace gpucheck::kernels {

// The word the parent reads back (kernels/run.cpp).
inline std::string word(StepStatus s) { return std::string(to_string(s)); }

// A driver failure inside a step: which call, which code.
struct Failure {
  std::string call;
  cu::CUresult code;
};

#define CU_TRY(call)                                  \
  do {                                                \
    const ::gpucheck::kernels::cu::CUresult r_ = (call); \
    if (r_ != 0) throw ::gpucheck::kernels::Failure{#call, r_}; \
  } while (0)

// "api.cuMemcpyDtoH_v2(…)" -> "cuMemcpyDtoH_v2".
inline std::string call_name(const std::string& expr) {
  const std::string head = expr.substr(0, expr.find('('));
  return head.substr(head.rfind('.') + 1);
}

// A failure's fields in a step's result: the call and the driver's name for
// its code. One after a launch, copy, event or synchronisation is a failed
// launch; either way the context may be unusable (sticky errors), so the
// child stops and the parent starts a fresh one for the steps left.
void record_failure(const cu::Api& api, const Failure& f, nlohmann::json& result);

// RAII for device and pinned host memory, so a failed step frees what it
// took; a buffer of another device's context names that context, made
// current again to free it.
struct DeviceBuffer {
  const cu::Api& api;
  cu::CUdeviceptr ptr = 0;
  cu::CUcontext ctx = nullptr;
  ~DeviceBuffer() {
    if (!ptr) return;
    if (ctx) api.cuCtxSetCurrent(ctx);
    api.cuMemFree_v2(ptr);
  }
};
struct HostBuffer {
  const cu::Api& api;
  void* ptr = nullptr;
  ~HostBuffer() { if (ptr) api.cuMemFreeHost(ptr); }
};
struct Event {
  const cu::Api& api;
  cu::CUevent ev = nullptr;
  ~Event() { if (ev) api.cuEventDestroy_v2(ev); }
};

// Milliseconds between two events around `fn`, on the current context's stream.
template <class F>
float timed(const cu::Api& api, F&& fn) {
  Event a{api}, b{api};
  CU_TRY(api.cuEventCreate(&a.ev, 0));
  CU_TRY(api.cuEventCreate(&b.ev, 0));
  CU_TRY(api.cuEventRecord(a.ev, nullptr));
  fn();
  CU_TRY(api.cuEventRecord(b.ev, nullptr));
  CU_TRY(api.cuEventSynchronize(b.ev));
  float ms = 0;
  CU_TRY(api.cuEventElapsedTime(&ms, a.ev, b.ev));
  return ms;
}

// dlopen of the first candidate that loads, every entry point resolved,
// cuInit: the library, or nullopt with the reason in `out` ("load_error",
// "missing_symbols", "init_code"/"init_name"; "driver_version" either way).
std::optional<DynamicLibrary> load_driver(const std::vector<std::string>& candidates, cu::Api& api, nlohmann::json& out);

}  // namespace gpucheck::kernels
