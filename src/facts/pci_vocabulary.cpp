#include "facts/pci_vocabulary.hpp"

namespace gpucheck {

namespace {

// PCI-SIG vendor ids: 10de NVIDIA, 1002 AMD (ATI).
struct VendorRow {
  PciVendor vendor;
  std::string_view name, id;
};
constexpr VendorRow kVendors[] = {{PciVendor::nvidia, "nvidia", "10de"}, {PciVendor::amd, "amd", "1002"}};

struct KindRow {
  PciKind kind;
  std::string_view name;
};
constexpr KindRow kKinds[] = {{PciKind::gpu, "gpu"}, {PciKind::nvswitch, "nvswitch"}};

}  // namespace

std::string_view to_string(PciVendor v) {
  for (const auto& r : kVendors)
    if (r.vendor == v) return r.name;
  return "?";
}

std::string_view to_string(PciKind k) {
  for (const auto& r : kKinds)
    if (r.kind == k) return r.name;
  return "?";
}

std::optional<PciVendor> pci_vendor_named(std::string_view name) {
  for (const auto& r : kVendors)
    if (r.name == name) return r.vendor;
  return std::nullopt;
}

std::optional<PciKind> pci_kind_named(std::string_view name) {
  for (const auto& r : kKinds)
    if (r.name == name) return r.kind;
  return std::nullopt;
}

std::optional<PciVendor> pci_vendor_of_id(std::string_view id) {
  for (const auto& r : kVendors)
    if (r.id == id) return r.vendor;
  return std::nullopt;
}

std::string pci_vendor_names() {
  std::string out;
  for (const auto& r : kVendors) out += (out.empty() ? "" : ", ") + std::string(r.name);
  return out;
}

std::string pci_kind_names() {
  std::string out;
  for (const auto& r : kKinds) out += (out.empty() ? "" : ", ") + std::string(r.name);
  return out;
}

}  // namespace gpucheck
