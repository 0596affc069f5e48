// /var/lib/dpkg/status: stanzas of "Field: value", one per package.
#pragma once
#include <optional>
#include <string>
#include <string_view>
namespace gpucheck {
struct DpkgPackage {
  std::string name, version, status;
};
// The first installed package whose name starts with `prefix`
// ("nvidia-fabricmanager" matches "nvidia-fabricmanager-550").
std::optional<DpkgPackage> find_installed_package(std::string_view status_file, std::string_view prefix);
}  // namespace gpucheck
