#include "parse/dpkg_status.hpp"

#include "util/strings.hpp"

namespace gpucheck {

std::optional<DpkgPackage> find_installed_package(std::string_view text, std::string_view prefix) {
  DpkgPackage cur;
  auto done = [&]() -> bool {
    return starts_with(cur.name, prefix) && cur.status.find(" installed") != std::string::npos && !cur.version.empty();
  };
  for (auto line : split_lines(text)) {
    if (line.empty()) {
      if (done()) return cur;
      cur = {};
      continue;
    }
    if (starts_with(line, "Package: ")) cur.name = std::string(trim(line.substr(9)));
    else if (starts_with(line, "Version: ")) cur.version = std::string(trim(line.substr(9)));
    else if (starts_with(line, "Status: ")) cur.status = std::string(trim(line.substr(8)));
  }
  if (done()) return cur;
  return std::nullopt;
}

}  // namespace gpucheck
