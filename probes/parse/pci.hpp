// sysfs PCI attribute values and the pci.ids database.
#pragma once
#include <map>
#include <optional>
#include <string>
#include <string_view>
namespace gpucheck {
// "16.0 GT/s PCIe" or "16 GT/s" -> 4; "2.5 GT/s" -> 1: the generation whose
// rate it is, within 0.1 GT/s. rates_gts: generation -> GT/s (the matrix's
// pcie_generations). nullopt for "Unknown" & co.
std::optional<int> pcie_gen_from_speed(std::string_view sysfs_speed, const std::map<int, double>& rates_gts);
// "16" -> 16; "x16" -> 16; "16x" -> 16; "0" (link down) -> 0.
std::optional<int> parse_link_width(std::string_view text);
// "0x10de\n" -> "10de".
std::optional<std::string> parse_hex_id(std::string_view text, std::size_t digits);
// Looks up a device (and, when given, its subsystem) in pci.ids text. The
// subsystem's name is more specific ("H100 SXM5 80GB") and wins when present.
std::optional<std::string> pci_ids_name(std::string_view pci_ids, std::string_view vendor, std::string_view device,
                                        std::string_view subvendor = {}, std::string_view subdevice = {});
}  // namespace gpucheck
