#include "importers/repo_names.hpp"

#include <cctype>

namespace gpucheck {

namespace {

bool repo_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-'; }

bool has(std::string_view s, int (*is)(int)) {
  for (char c : s)
    if (is(static_cast<unsigned char>(c))) return true;
  return false;
}

}  // namespace

std::vector<std::string_view> repo_names(std::string_view line) {
  std::vector<std::string_view> out;
  for (std::size_t slash = line.find('/'); slash != std::string_view::npos; slash = line.find('/', slash + 1)) {
    std::size_t start = slash, end = slash + 1;
    while (start > 0 && repo_char(line[start - 1])) --start;
    while (end < line.size() && repo_char(line[end])) ++end;
    // A path or URL continues past either end with '/' or ':'; a word starting with '.' is a path.
    const bool before = start > 0 && (line[start - 1] == '/' || line[start - 1] == ':' || line[start - 1] == '~');
    const bool after = end < line.size() && (line[end] == '/' || line[end] == ':');
    const auto owner = line.substr(start, slash - start), name = line.substr(slash + 1, end - slash - 1);
    if (before || after || owner.empty() || name.empty() || owner.front() == '.' || owner.front() == '-') continue;
    if (!has(name, std::isalpha) || !has(name, std::isdigit)) continue;
    out.push_back(line.substr(start, end - start));
  }
  return out;
}

}  // namespace gpucheck
