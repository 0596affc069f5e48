// The PCI devices gpucheck reads: whose (vendor) and what (kind), each with
// its one spelling in the facts' JSON, the reports and the rules' facts.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace gpucheck {

enum class PciVendor { nvidia, amd };
enum class PciKind { gpu, nvswitch };

std::string_view to_string(PciVendor v);  // "nvidia", "amd"
std::string_view to_string(PciKind k);    // "gpu", "nvswitch"
std::optional<PciVendor> pci_vendor_named(std::string_view name);
std::optional<PciKind> pci_kind_named(std::string_view name);
// The vendor a PCI vendor id names ("10de", lower-case hex); nullopt for any
// vendor gpucheck does not read.
std::optional<PciVendor> pci_vendor_of_id(std::string_view id);
// "nvidia, amd": for an error that says what was expected.
std::string pci_vendor_names();
std::string pci_kind_names();

}  // namespace gpucheck
