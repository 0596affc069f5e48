// One PEP 508 requirement (peps.python.org/pep-0508): a project name, its
// extras, a version specifier or a URL, and an environment marker.
#include "parse/python_requirement.hpp"

#include <cctype>

#include "parse/python_lexing.hpp"
#include "util/python_name.hpp"
#include "util/strings.hpp"

namespace gpucheck {

Result<ParsedRequirement> parse_requirement(std::string_view line) {
  ParsedRequirement r;
  std::string_view s = trim(line);
  const auto semi = s.find(';');
  if (semi != std::string_view::npos) {
    auto marker = trim(s.substr(semi + 1));
    if (!marker.empty()) r.marker = std::string(marker);
    s = trim(s.substr(0, semi));
  }
  std::size_t i = 0;
  while (i < s.size() && (std::isalnum(static_cast<unsigned char>(s[i])) || s[i] == '-' || s[i] == '_' || s[i] == '.')) ++i;
  if (i == 0) return Problem{Reason::malformed, std::string(line), "a requirement must start with a project name"};
  r.name = normalize_dist_name(s.substr(0, i));
  std::string_view rest = trim(s.substr(i));
  if (!rest.empty() && rest.front() == '[') {  // extras: "[cuda,fast]"
    const auto close = rest.find(']');
    if (close == std::string_view::npos) return Problem{Reason::malformed, std::string(line), "unclosed extras bracket"};
    rest = trim(rest.substr(close + 1));
  }
  if (!rest.empty() && rest.front() == '@') {
    r.url = std::string(trim(rest.substr(1)));
    return r;
  }
  if (!rest.empty() && rest.front() == '(') {  // the old "name (>=1.0)" form
    if (rest.back() != ')') return Problem{Reason::malformed, std::string(line), "unclosed parenthesis"};
    rest = trim(rest.substr(1, rest.size() - 2));
  }
  for (char c : rest)
    if (!is_blank(c)) r.specifier += c;
  return r;
}

}  // namespace gpucheck
