// What the two NVML children (the health query, nvml_probe.cpp, and the
// NVLink query, nvlink_probe.cpp) share: listing the devices in the child,
// and reading that list back in the probe. Each child loads its own entry
// points; these take the few every query needs.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "host/nvml_types.hpp"
#include "probe.hpp"

namespace gpucheck {

// The bus id NVML wrote ("00000000:18:00.0"), to its terminator.
std::string nvml_bus_id(const nvml::PciInfo& p);

struct NvmlListing {
  nvml::nvmlReturn_t (*count)(unsigned*);
  nvml::nvmlReturn_t (*handle)(unsigned, nvml::nvmlDevice_t*);
  nvml::nvmlReturn_t (*pci_info)(nvml::nvmlDevice_t, nvml::PciInfo*);
  std::function<std::string(nvml::nvmlReturn_t)> error;  // "15 (GPU is lost)"
};

// In the child, after nvmlInit_v2: into `out`, "count_error", or "devices"
// with each one's `describe`d object plus its "index" and "pci_bus_id" (as
// NVML prints it), or its "index" and the "error" that kept NVML from it.
void list_nvml_devices(const NvmlListing& nvml, const std::function<nlohmann::json(nvml::nvmlDevice_t)>& describe,
                       nlohmann::json& out);

// In the probe: the devices of a child's answer. nullopt, with a note of
// `subject`, where the child stopped before listing them (nvmlInit_v2 or
// the count failed, an entry point is missing); a device NVML could not
// reach is a note and left out.
std::optional<std::vector<const nlohmann::json*>> nvml_answer_devices(ProbeContext& ctx, const std::string& subject,
                                                                      const nlohmann::json& answer, const std::string& library);

}  // namespace gpucheck
