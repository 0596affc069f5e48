#include "parse/c_header.hpp"

#include "util/strings.hpp"

namespace gpucheck {
namespace {

bool is_name(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_')) return false;
  return true;
}

}  // namespace

std::map<std::string, std::string> macro_definitions(std::string_view header) {
  std::map<std::string, std::string> out;
  for (auto line : split_lines(header)) {
    line = trim(line);
    if (!starts_with(line, "#")) continue;
    line = trim(line.substr(1));
    if (!starts_with(line, "define")) continue;
    line = line.substr(6);
    if (line.empty() || (line.front() != ' ' && line.front() != '\t')) continue;
    line = trim(line);
    const auto sp = line.find_first_of(" \t");
    const auto name = line.substr(0, sp);
    if (!is_name(name)) continue;  // a function-like macro: "NAME(x)"
    auto value = sp == std::string_view::npos ? std::string_view{} : trim(line.substr(sp));
    if (const auto c = value.find("//"); c != std::string_view::npos) value = trim(value.substr(0, c));
    if (const auto c = value.find("/*"); c != std::string_view::npos) value = trim(value.substr(0, c));
    if (value.size() >= 2 && value.front() == '"' && value.back() == '"') value = value.substr(1, value.size() - 2);
    out.emplace(std::string(name), std::string(value));
  }
  return out;
}

}  // namespace gpucheck
