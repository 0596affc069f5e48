#include "util/pci_address.hpp"

#include "util/strings.hpp"

namespace gpucheck {

std::string normalize_pci_bus_id(std::string_view id) {
  std::string s = to_lower(trim(id));
  const auto colon = s.find(':');
  if (colon == std::string::npos) return s;
  std::size_t zeros = 0;
  while (colon - zeros > 4 && s[zeros] == '0') ++zeros;
  return s.substr(zeros);
}

std::string compact_pci_bus_ids(const std::vector<std::string>& ids) {
  if (ids.size() < 2) return ids.empty() ? "" : ids.front();
  // "dddd:bb:dd.f": the bus is the text between the first and second colon.
  std::string prefix, suffix;
  std::vector<std::string> buses;
  for (const auto& id : ids) {
    const auto first = id.find(':');
    const auto second = first == std::string::npos ? std::string::npos : id.find(':', first + 1);
    if (second == std::string::npos) return join(ids, ", ");
    const std::string p = id.substr(0, first + 1), s = id.substr(second);
    if (buses.empty()) prefix = p, suffix = s;
    else if (p != prefix || s != suffix) return join(ids, ", ");
    buses.push_back(id.substr(first + 1, second - first - 1));
  }
  return prefix + "{" + join(buses, ",") + "}" + suffix;
}

}  // namespace gpucheck
