// The CUDA Driver API, asked directly: does cuInit succeed, which CUDA does
// the driver support, and which devices does it see. libcuda is loaded in a
// child process with a deadline (Host::isolated_call): a driver that hangs
// or crashes on init becomes a note, never a hung pre-flight check.
#include <nlohmann/json.hpp>

#include "child_answer.hpp"
#include "host/cuda_driver_types.hpp"
#include "host/cuda_devices.hpp"
#include "host/dynamic_library.hpp"
#include "host/symbol_table.hpp"
#include "matrix/platform_knowledge.hpp"
#include "probe.hpp"
#include "util/pci_address.hpp"
#include "util/version.hpp"
#include "util/json_text.hpp"

namespace gpucheck {
namespace {

using nlohmann::json;
constexpr const char* kCallKey = "cuda-driver-api";

// Runs in the child. Prints one JSON object: the answers, or where it stopped.
std::string query_driver(const std::vector<std::string>& candidates) {
  json out;
  auto lib = DynamicLibrary::open(candidates);
  if (!lib) return dump_json(json{{"load_error", lib.problem().detail}});
  out["library"] = lib->opened();
  cuda::QueryApi api;
#define GPUCHECK_SLOT(name, ret, params) SymbolSlot{#name, &api.name},
  out["missing_symbols"] = resolve_symbols(*lib, {GPUCHECK_CUDA_QUERY_ENTRY_POINTS(GPUCHECK_SLOT)});
#undef GPUCHECK_SLOT
  if (!api.cuInit) return dump_json(out);

  const cuda::CUresult init = api.cuInit(0);
  out["init_code"] = init;
  const char* text = nullptr;
  if (api.cuGetErrorName && api.cuGetErrorName(init, &text) == 0 && text) out["init_name"] = text;
  if (api.cuGetErrorString && api.cuGetErrorString(init, &text) == 0 && text) out["init_message"] = text;
  int version = 0;
  if (api.cuDriverGetVersion && api.cuDriverGetVersion(&version) == 0 && version > 0) out["driver_version"] = version;
  if (init != 0) {
    out["devices"] = json::array();
    return dump_json(out);
  }
  out.update(cuda::list_devices(api));
  return dump_json(out);
}

// A toolkit's stub answers CUDA_ERROR_STUB_LIBRARY to every call,
// cuGetErrorName included, so it cannot name its own error; cuda.h does
// (its code: matrix/cuda_errors.json).
std::string init_name_or_why(const CudaDriverApiFacts& c) {
  if (c.init_name) return *c.init_name;
  constexpr std::string_view kStub = "CUDA_ERROR_STUB_LIBRARY";
  if (const auto stub = cuda_error_code(kStub); stub && c.init_code == *stub)
    return std::string(kStub) + ": a CUDA toolkit's stub, not the driver";
  return "the library gave no name for it";
}

}  // namespace

void probe_cuda_driver_api(ProbeContext& ctx) {
  const auto& lib = ctx.facts().nvidia_driver.libcuda;
  std::vector<std::string> candidates;
  if (lib.path) candidates.push_back(*lib.path);
  candidates.push_back("libcuda.so.1");  // the loader's own search, as a program would do
  // The loader would not find it either, so nothing is loaded: the same
  // decision live and on replay.
  if (!lib.path) {
    ctx.note("cuda_driver_api", "CUDA driver", Problem{Reason::absent, "libcuda.so.1", "no libcuda.so.1 to load: the NVIDIA userspace driver is not installed"});
    return;
  }
  ctx.start_call(IsolatedCall{kCallKey, candidates}, ctx.deadline().cap(ctx.options().driver_timeout), *lib.path);
}

const IsolatedEntry kCudaDriverCall{kCallKey, query_driver};

void finish_cuda_driver_api(ProbeContext& ctx) {
  auto call = ctx.take_call(kCallKey);
  if (!call) return;
  const auto parsed = child_answer(ctx, ChildCall{"cuda_driver_api", "CUDA driver", kCallKey, call->library,
                                                  "libcuda did not answer within " + std::to_string(call->deadline.count()) +
                                                      " ms (cuInit or a device query hung)"},
                                   call->answer);
  if (!parsed) return;
  const json& j = *parsed;
  CudaDriverApiFacts c;
  c.library = json_field<std::string>(j, "library");
  c.init_code = json_field<int>(j, "init_code");
  c.init_name = json_field<std::string>(j, "init_name");
  c.init_message = json_field<std::string>(j, "init_message");
  if (auto raw = j.find("driver_version"); raw != j.end() && !raw->is_null()) {
    if (auto v = Version::from_cuda_int(json_number<long long>(*raw).value_or(0))) c.driver_version = v->text();
    else
      ctx.note("cuda_driver_api", "driver version",
               Problem{Reason::malformed, c.library.value_or("libcuda"),
                       "cuDriverGetVersion answered " + clip_text(dump_json(*raw), 40) + ", not a CUDA version (1000 × major + 10 × minor)"});
  }
  if (auto m = json_field<std::vector<std::string>>(j, "missing_symbols"); m && !m->empty()) {
    std::string names;
    for (auto& s : *m) names += (names.empty() ? "" : ", ") + s;
    ctx.note("cuda_driver_api", "driver entry points", Problem{Reason::absent, c.library.value_or("libcuda"), "the library lacks " + names});
  }
  if (c.init_code && *c.init_code != 0)
    ctx.note("cuda_driver_api", "cuInit",
             Problem{Reason::failed, c.library.value_or("libcuda"),
                     "cuInit returned " + std::to_string(*c.init_code) + " (" + init_name_or_why(c) + ")" +
                         (c.init_message ? ": " + *c.init_message : "")});
  // How many devices CUDA offers a job: a count that failed, or a device it
  // refused, is a note the gate names, never a GPU quietly not counted.
  if (auto err = json_field<std::string>(j, "count_error"))
    ctx.note("cuda_driver_api", "device count",
             Problem{Reason::failed, c.library.value_or("libcuda"), "cuDeviceGetCount returned " + *err});
  else if (c.init_code == 0)
    if (auto devs = j.find("devices"); devs != j.end() && devs->is_array()) c.device_count = static_cast<int>(devs->size());
  if (auto devs = j.find("devices"); devs != j.end() && devs->is_array()) {
    for (auto& d : *devs) {
      if (auto err = json_field<std::string>(d, "error")) {
        const auto ordinal = json_field<int>(d, "ordinal").value_or(static_cast<int>(c.devices.size()));
        ctx.note("cuda_driver_api", "device " + std::to_string(ordinal),
                 Problem{Reason::failed, c.library.value_or("libcuda"), "cuDeviceGet(" + std::to_string(ordinal) + ") returned " + *err});
        continue;
      }
      CudaDevice cd;
      cd.ordinal = json_field<int>(d, "ordinal").value_or(static_cast<int>(c.devices.size()));
      cd.name = json_field<std::string>(d, "name");
      cd.uuid = json_field<std::string>(d, "uuid");
      cd.compute_capability = json_field<std::string>(d, "compute_capability");
      if (cd.compute_capability && !Version::parse(*cd.compute_capability)) {
        ctx.note("cuda_driver_api", "device " + std::to_string(cd.ordinal) + " compute capability",
                 Problem{Reason::malformed, c.library.value_or("libcuda"),
                         "cuDeviceGetAttribute answered " + clip_text(*cd.compute_capability, 40) + ", not MAJOR.MINOR"});
        cd.compute_capability.reset();
      }
      cd.sm_count = json_field<int>(d, "sm_count");
      cd.memory_bytes = json_field<std::uint64_t>(d, "memory_bytes");
      if (auto b = json_field<std::string>(d, "pci_bus_id")) cd.pci_bus_id = normalize_pci_bus_id(*b);
      c.devices.push_back(std::move(cd));
    }
  }
  ctx.facts().cuda = std::move(c);
}

}  // namespace gpucheck
