#include "nvml_child.hpp"

#include <cstring>

#include "util/json_field.hpp"
#include "util/strings.hpp"

namespace gpucheck {

using nlohmann::json;
using namespace nvml;

std::string nvml_bus_id(const PciInfo& p) { return std::string(p.busId, strnlen(p.busId, sizeof p.busId)); }

void list_nvml_devices(const NvmlListing& nvml, const std::function<json(nvmlDevice_t)>& describe, json& out) {
  unsigned count = 0;
  if (const nvmlReturn_t r = nvml.count(&count); r != kSuccess) {
    out["count_error"] = nvml.error(r);
    return;
  }
  out["devices"] = json::array();
  for (unsigned i = 0; i < count; ++i) {
    nvmlDevice_t dev = nullptr;
    PciInfo pci{};
    nvmlReturn_t got = nvml.handle(i, &dev);
    if (got == kSuccess) got = nvml.pci_info(dev, &pci);
    if (got != kSuccess) {
      out["devices"].push_back(json{{"index", i}, {"error", nvml.error(got)}});
      continue;
    }
    json d = describe(dev);
    d["index"] = i;
    d["pci_bus_id"] = nvml_bus_id(pci);
    out["devices"].push_back(std::move(d));
  }
}

std::optional<std::vector<const json*>> nvml_answer_devices(ProbeContext& ctx, const std::string& subject, const json& j,
                                                            const std::string& library) {
  for (auto [key, call] : {std::pair{"init_error", "nvmlInit_v2"}, std::pair{"count_error", "nvmlDeviceGetCount_v2"}})
    if (auto err = json_field<std::string>(j, key)) {
      ctx.note(subject, "NVML", Problem{Reason::failed, library, std::string(call) + " returned " + *err});
      return std::nullopt;
    }
  auto devs = j.find("devices");
  if (devs == j.end() || !devs->is_array()) {
    const auto missing = json_field<std::vector<std::string>>(j, "missing_symbols").value_or(std::vector<std::string>{});
    ctx.note(subject, "NVML", Problem{Reason::failed, library, "the library lacks " + (missing.empty() ? std::string("its entry points") : join(missing, ", "))});
    return std::nullopt;
  }
  std::vector<const json*> out;
  for (auto& d : *devs) {
    if (auto err = json_field<std::string>(d, "error")) {
      const auto index = std::to_string(json_field<int>(d, "index").value_or(-1));
      ctx.note(subject, "device " + index, Problem{Reason::failed, library, "NVML could not reach GPU " + index + ": " + *err});
      continue;
    }
    out.push_back(&d);
  }
  return out;
}

}  // namespace gpucheck
