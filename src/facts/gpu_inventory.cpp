#include "facts/gpu_inventory.hpp"

#include <unordered_map>

#include "util/pci_address.hpp"
#include "util/strings.hpp"

namespace gpucheck {

std::vector<InventoryGpu> gpu_inventory(const Facts& f) {
  std::vector<InventoryGpu> out;
  std::unordered_map<std::string, std::size_t> by_key;
  auto entry = [&](const std::string& address) -> InventoryGpu& {
    const auto [it, added] = by_key.try_emplace(normalize_pci_bus_id(address), out.size());
    if (added) {
      out.emplace_back();
      out.back().address = address;
      out.back().key = it->first;
    }
    return out[it->second];
  };
  for (auto& d : f.pci)
    if (d.kind == PciKind::gpu) entry(d.address).pci = &d;
  for (auto& g : f.nvidia_driver.gpus) entry(g.bus_location).proc = &g;
  if (f.nvidia_smi)
    for (auto& g : f.nvidia_smi->gpus) {
      auto& e = entry(g.pci_bus_id);
      e.smi = &g;
      e.smi_source = f.nvidia_smi->source;
    }
  if (f.cuda)
    for (auto& d : f.cuda->devices) entry(d.pci_bus_id ? *d.pci_bus_id : "CUDA device " + std::to_string(d.ordinal)).cuda = &d;

  std::vector<std::size_t> amd;
  for (std::size_t i = 0; i < out.size(); ++i)
    if (out[i].pci && out[i].pci->vendor == PciVendor::amd) amd.push_back(i);
  std::size_t next = 0;
  std::vector<const KfdNode*> unpaired;
  for (auto& n : f.software.rocm.gpu_nodes) {
    if (next < amd.size() && (!n.device_id || to_lower(*n.device_id) == out[amd[next]].pci->device_id))
      out[amd[next++]].kfd = &n;
    else
      unpaired.push_back(&n);
  }
  for (auto* n : unpaired) entry("KFD node " + std::to_string(n->node)).kfd = n;
  return out;
}

}  // namespace gpucheck
