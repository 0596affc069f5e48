// PCI bus ids as every source spells them, made one key.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace gpucheck {

// nvidia-smi's "00000000:18:00.0", CUDA's "0000:18:00.0" and sysfs's
// "0000:18:00.0" name the same device: trimmed, lower-case, the domain cut
// to four hex digits where the digits above them are zero. Text that is not
// a bus id comes back trimmed and lower-cased.
std::string normalize_pci_bus_id(std::string_view id);

// Several bus ids in one short phrase: "0000:{18,2a,3a}:00.0" where they
// share their domain and device.function (a GPU board's usual layout), else
// listed with ", ". In the order given.
std::string compact_pci_bus_ids(const std::vector<std::string>& ids);

}  // namespace gpucheck
