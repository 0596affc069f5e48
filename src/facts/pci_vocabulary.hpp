// The PCI devices gpucheck reads: whose (vendor) and what (kind), each with
// its one spelling in the facts' JSON, the reports and the rules' facts.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

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

// The ACS Control bits that are set, in lspci's words ("SrcValid",
// "ReqRedir", …), in bit order (PCI_ACS_* of linux/pci_regs.h).
std::vector<std::string> acs_words(std::uint16_t control);
// lspci's ACSCtl line back to the register: "SrcValid+ TransBlk- ReqRedir+ …"
// (each word a bit's name and + or -). nullopt when a word is not one of
// them, or no bit is named.
std::optional<std::uint16_t> acs_control_of(std::string_view lspci_words);
// Peer-to-peer requests or completions go up to the root complex
// (ReqRedir, CmpltRedir) or are blocked (EgressCtrl) instead of crossing
// the switch.
bool acs_redirects_p2p(std::uint16_t control);

}  // namespace gpucheck
