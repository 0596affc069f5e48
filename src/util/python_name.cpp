#include "util/python_name.hpp"

#include <cctype>

#include "util/strings.hpp"

namespace gpucheck {

std::string normalize_dist_name(std::string_view name) {
  std::string out;
  out.reserve(name.size());
  bool sep = false;
  for (char c : trim(name)) {
    if (c == '-' || c == '_' || c == '.') {
      sep = true;
      continue;
    }
    if (sep && !out.empty()) out += '-';
    sep = false;
    out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return out;
}

}  // namespace gpucheck
