#include "parse/os_release.hpp"

#include "util/strings.hpp"

namespace gpucheck {

namespace {
std::string unquote(std::string_view v) {
  v = trim(v);
  if (v.size() >= 2 && (v.front() == '"' || v.front() == '\'') && v.back() == v.front()) v = v.substr(1, v.size() - 2);
  std::string out;
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (v[i] == '\\' && i + 1 < v.size()) ++i;  // os-release(5): shell-style escapes
    out += v[i];
  }
  return out;
}
}  // namespace

OsRelease parse_os_release(std::string_view text) {
  OsRelease r;
  for (auto line : split_lines(text)) {
    line = trim(line);
    if (line.empty() || line[0] == '#') continue;
    const auto eq = line.find('=');
    if (eq == std::string_view::npos) continue;
    const auto key = line.substr(0, eq);
    auto value = unquote(line.substr(eq + 1));
    if (key == "ID") r.id = value;
    else if (key == "VERSION_ID") r.version_id = value;
    else if (key == "PRETTY_NAME") r.pretty_name = value;
    else if (key == "VERSION_CODENAME") r.version_codename = value;
  }
  return r;
}

}  // namespace gpucheck
