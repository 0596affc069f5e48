// Which GPUs this host has: every probe's view of each physical GPU joined
// into one entry, so that rules, locks and the kernel checks count and
// name the same GPUs.
#pragma once

#include <string>
#include <vector>

#include "facts/facts.hpp"

namespace gpucheck {

// One physical GPU as the probes saw it; a null pointer is a source that did
// not see it. Points into the Facts it was taken from.
struct InventoryGpu {
  std::string address;  // as its first source spelt it ("0000:18:00.0"); "CUDA device 3" or "KFD node 2" without one
  std::string key;      // the address normalised (util/pci_address.hpp): what the sources are joined by
  const PciDevice* pci = nullptr;
  const ProcGpu* proc = nullptr;  // /proc/driver/nvidia/gpus/*/information
  const SmiGpu* smi = nullptr;
  std::string smi_source;  // nvidia-smi, or the report that stood in for it
  const CudaDevice* cuda = nullptr;
  const KfdNode* kfd = nullptr;
};

// The GPUs in order of first sight, sources joined in this order: PCI
// (sysfs), /proc/driver/nvidia, nvidia-smi, the CUDA driver API, each by PCI
// bus id; then KFD nodes, which carry no address, paired in order with the
// AMD PCI GPUs of the same device id (else listed alone). Linear in GPUs.
std::vector<InventoryGpu> gpu_inventory(const Facts& f);

}  // namespace gpucheck
