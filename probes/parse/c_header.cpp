#include "parse/c_header.hpp"

#include "util/strings.hpp"

namespace gpucheck {

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
    const auto end_of_name = line.find_first_of(" \t(");
    if (end_of_name == std::string_view::npos || line[end_of_name] == '(') continue;
    auto value = trim(line.substr(end_of_name));
    value = trim(value.substr(0, std::min(value.find("/*"), value.find("//"))));
    if (!value.empty()) out[std::string(line.substr(0, end_of_name))] = std::string(value);
  }
  return out;
}

}  // namespace gpucheck
