// Simple assignments of Python source: what the frameworks' build files
// (torch/version.py, TensorFlow's build_info.py, …) say, read without Python.
#include "parse/python_assignments.hpp"

#include <optional>

#include "parse/python_lexing.hpp"

namespace gpucheck {

std::map<std::string, std::string> parse_python_assignments(std::string_view s) {
  std::map<std::string, std::string> out;
  auto skip_spaces = [&](std::size_t j) {
    while (j < s.size() && is_blank(s[j])) ++j;
    return j;
  };
  auto read_value = [&](std::size_t j) -> std::optional<std::string> {
    j = skip_spaces(j);
    if (j >= s.size()) return std::nullopt;
    const char c = s[j];
    if (c == '"' || c == '\'') {
      const auto close = s.find(c, j + 1);
      if (close == std::string_view::npos) return std::nullopt;
      return std::string(s.substr(j + 1, close - j - 1));
    }
    if (c == '[' || c == '(') {
      const char closing = c == '[' ? ']' : ')';
      const auto close = s.find(closing, j);
      if (close == std::string_view::npos) return std::nullopt;
      return std::string(s.substr(j, close - j + 1));
    }
    std::size_t e = j;
    while (e < s.size() && (is_ident(s[e]) || s[e] == '.' || s[e] == '-')) ++e;
    if (e == j) return std::nullopt;
    return std::string(s.substr(j, e - j));
  };
  bool line_start = true;
  for (std::size_t i = 0; i < s.size();) {
    const char c = s[i];
    if (c == '\n') {
      line_start = true;
      ++i;
      continue;
    }
    if (c == '#') {  // a comment runs to the end of the line
      while (i < s.size() && s[i] != '\n') ++i;
      continue;
    }
    if (c == '"' || c == '\'') {
      // 'key': value  or  name['key'] = value
      const auto close = s.find(c, i + 1);
      if (close == std::string_view::npos) break;
      const std::string key(s.substr(i + 1, close - i - 1));
      std::size_t j = skip_spaces(close + 1);
      if (j < s.size() && s[j] == ']') j = skip_spaces(j + 1);
      if (j < s.size() && (s[j] == ':' || (s[j] == '=' && (j + 1 >= s.size() || s[j + 1] != '=')))) {
        if (auto v = read_value(j + 1); v && !out.count(key)) out[key] = *v;
      }
      i = close + 1;
      line_start = false;
      continue;
    }
    if (line_start && is_ident_start(c)) {
      // name = value  or  name: Annotation = value
      std::size_t e = i;
      while (e < s.size() && is_ident(s[e])) ++e;
      const std::string key(s.substr(i, e - i));
      std::size_t j = skip_spaces(e);
      if (j < s.size() && s[j] == ':') {
        while (j < s.size() && s[j] != '=' && s[j] != '\n') ++j;
      }
      if (j < s.size() && s[j] == '=' && (j + 1 >= s.size() || s[j + 1] != '=')) {
        if (auto v = read_value(j + 1); v && !out.count(key)) out[key] = *v;
      }
      i = e;
      line_start = false;
      continue;
    }
    if (!is_blank(c)) line_start = false;
    ++i;
  }
  return out;
}

}  // namespace gpucheck
