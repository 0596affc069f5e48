#include "facts/pci_vocabulary.hpp"

#include "util/word_table.hpp"

namespace gpucheck {

namespace {

constexpr Word<PciVendor> kVendors[] = {{PciVendor::nvidia, "nvidia"}, {PciVendor::amd, "amd"}};
// PCI-SIG vendor ids: 10de NVIDIA, 1002 AMD (ATI).
constexpr Word<PciVendor> kVendorIds[] = {{PciVendor::nvidia, "10de"}, {PciVendor::amd, "1002"}};
constexpr Word<PciKind> kKinds[] = {{PciKind::gpu, "gpu"}, {PciKind::nvswitch, "nvswitch"}};

}  // namespace

std::string_view to_string(PciVendor v) { return name_of(kVendors, v); }
std::string_view to_string(PciKind k) { return name_of(kKinds, k); }
std::optional<PciVendor> pci_vendor_named(std::string_view name) { return value_named(kVendors, name); }
std::optional<PciKind> pci_kind_named(std::string_view name) { return value_named(kKinds, name); }
std::optional<PciVendor> pci_vendor_of_id(std::string_view id) { return value_named(kVendorIds, id); }
std::string pci_vendor_names() { return names_of(kVendors); }
std::string pci_kind_names() { return names_of(kKinds); }

}  // namespace gpucheck
