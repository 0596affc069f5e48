#include "parse/pci.hpp"

#include "util/strings.hpp"

namespace gpucheck {

std::optional<int> pcie_gen_from_speed(std::string_view s, const std::map<int, double>& rates_gts) {
  s = trim(s);
  const auto sp = s.find(' ');
  auto gts = parse_double(s.substr(0, sp));
  if (!gts) return std::nullopt;
  for (const auto& [gen, rate] : rates_gts)
    if (*gts > rate - 0.1 && *gts < rate + 0.1) return gen;
  return std::nullopt;
}

std::optional<int> parse_link_width(std::string_view s) {
  s = trim(s);
  if (!s.empty() && (s.front() == 'x' || s.front() == 'X')) s.remove_prefix(1);
  if (!s.empty() && (s.back() == 'x' || s.back() == 'X')) s.remove_suffix(1);
  auto v = parse_int(s);
  if (!v || *v < 0 || *v > 64) return std::nullopt;
  return static_cast<int>(*v);
}

std::optional<std::string> parse_hex_id(std::string_view text, std::size_t digits) {
  auto s = trim(text);
  if (starts_with(s, "0x") || starts_with(s, "0X")) s.remove_prefix(2);
  if (s.empty() || s.size() > digits || !parse_int(s, 16)) return std::nullopt;
  std::string out = to_lower(s);
  return std::string(digits - out.size(), '0') + out;
}

std::optional<std::string> pci_ids_name(std::string_view db, std::string_view vendor, std::string_view device,
                                        std::string_view subvendor, std::string_view subdevice) {
  // Format: "vvvv  Vendor", "\tdddd  Device", "\t\tssss ssss  Subsystem".
  bool in_vendor = false, in_device = false;
  std::optional<std::string> name;
  const std::string sub = std::string(subvendor) + " " + std::string(subdevice);
  std::size_t pos = 0;
  while (pos < db.size()) {
    auto end = db.find('\n', pos);
    if (end == std::string_view::npos) end = db.size();
    const auto line = db.substr(pos, end - pos);
    pos = end + 1;
    if (line.empty() || line[0] == '#') continue;
    if (line[0] != '\t') {
      if (in_vendor) break;  // past our vendor: done
      in_vendor = line.size() > 4 && to_lower(line.substr(0, 4)) == vendor;
      if (starts_with(line, "C ")) break;  // the device classes section starts
      continue;
    }
    if (!in_vendor) continue;
    if (line.size() > 1 && line[1] != '\t') {
      if (in_device) break;
      in_device = line.size() > 5 && to_lower(line.substr(1, 4)) == device;
      if (in_device) name = std::string(trim(line.substr(5)));
      continue;
    }
    if (in_device && !subvendor.empty() && line.size() > 12 && to_lower(line.substr(2, 9)) == sub)
      return std::string(trim(line.substr(11)));
  }
  return name;
}

}  // namespace gpucheck
