#include "parse/library_name.hpp"

#include "util/version.hpp"

namespace gpucheck {

std::optional<std::string> library_version_from_name(std::string_view path, std::string_view stem) {
  const auto slash = path.rfind('/');
  const auto name = slash == std::string_view::npos ? path : path.substr(slash + 1);
  if (name.substr(0, stem.size()) != stem || name.size() <= stem.size() + 1 || name[stem.size()] != '.')
    return std::nullopt;
  const auto ver = name.substr(stem.size() + 1);
  auto v = Version::parse(ver);
  if (!v || v->parts().size() < 2 || !v->suffix().empty()) return std::nullopt;
  return std::string(ver);
}

bool is_stub_library_path(std::string_view path) { return path.find("/stubs/") != std::string_view::npos; }

bool is_compat_library_path(std::string_view path) { return path.find("/compat/") != std::string_view::npos; }

}  // namespace gpucheck
