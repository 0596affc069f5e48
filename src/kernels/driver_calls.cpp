#include "kernels/driver_calls.hpp"

namespace gpucheck::kernels {

using nlohmann::json;

void record_failure(const cu::Api& api, const Failure& f, json& result) {
  const std::string call = call_name(f.call);
  const bool launchy = call.find("Launch") != std::string::npos || call.find("Synchronize") != std::string::npos ||
                       call.find("Memcpy") != std::string::npos || call.find("Event") != std::string::npos;
  result["launch_code"] = f.code;
  result["launch_error"] = call + " returned " + api.error_name(f.code);
  result["status"] = word(launchy ? StepStatus::launch_failed : StepStatus::failed);
  result["context_error"] = true;
}

std::optional<DynamicLibrary> load_driver(const std::vector<std::string>& candidates, cu::Api& api, json& out) {
  auto lib = DynamicLibrary::open(candidates);
  if (!lib) {
    out["load_error"] = lib.problem().detail;
    return std::nullopt;
  }
  out["library"] = lib->opened();
  const std::string missing = resolve(*lib, api);
  if (!missing.empty()) out["missing_symbols"] = missing;
  if (!api.cuInit) return std::nullopt;
  const cu::CUresult init = api.cuInit(0);
  out["init_code"] = init;
  if (init != 0) out["init_name"] = api.error_name(init);
  int version = 0;
  if (api.cuDriverGetVersion && api.cuDriverGetVersion(&version) == 0) out["driver_version"] = version;
  if (init != 0 || !missing.empty()) return std::nullopt;
  return std::move(lib).value();
}

}  // namespace gpucheck::kernels
