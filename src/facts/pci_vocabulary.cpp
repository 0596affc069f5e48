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

namespace gpucheck {

namespace {

// PCI_ACS_SV … PCI_ACS_DT (include/uapi/linux/pci_regs.h), named as lspci
// prints them in its ACSCtl line (pciutils ls-ecaps.c, cap_acs).
constexpr const char* kAcsBits[] = {"SrcValid", "TransBlk", "ReqRedir", "CmpltRedir", "UpstreamFwd", "EgressCtrl", "DirectTrans"};
constexpr std::uint16_t kAcsReqRedir = 0x0004, kAcsCmpltRedir = 0x0008, kAcsEgressCtrl = 0x0020;

}  // namespace

std::vector<std::string> acs_words(std::uint16_t control) {
  std::vector<std::string> out;
  for (std::size_t bit = 0; bit < std::size(kAcsBits); ++bit)
    if (control & (1u << bit)) out.emplace_back(kAcsBits[bit]);
  return out;
}

std::optional<std::uint16_t> acs_control_of(std::string_view text) {
  std::uint16_t control = 0;
  bool named = false;
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
    const auto start = i;
    while (i < text.size() && text[i] != ' ' && text[i] != '\t') ++i;
    const auto w = text.substr(start, i - start);
    if (w.empty()) break;
    const char sign = w.back();
    if (sign != '+' && sign != '-') return std::nullopt;
    const auto name = w.substr(0, w.size() - 1);
    std::size_t bit = 0;
    while (bit < std::size(kAcsBits) && name != kAcsBits[bit]) ++bit;
    if (bit == std::size(kAcsBits)) return std::nullopt;
    if (sign == '+') control |= static_cast<std::uint16_t>(1u << bit);
    named = true;
  }
  if (!named) return std::nullopt;
  return control;
}

bool acs_redirects_p2p(std::uint16_t control) { return control & (kAcsReqRedir | kAcsCmpltRedir | kAcsEgressCtrl); }

}  // namespace gpucheck
