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

}  // namespace gpucheck
