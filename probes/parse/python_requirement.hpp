// One PEP 508 requirement line, as Requires-Dist and requires.txt hold it.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "util/result.hpp"

namespace gpucheck {

// One PEP 508 requirement: "torch (>=2.0); python_version >= '3.8'".
struct ParsedRequirement {
  std::string name;       // normalised (PEP 503)
  std::string specifier;  // without spaces and parentheses; empty: any
  std::optional<std::string> marker;
  std::optional<std::string> url;  // "name @ url"
};
Result<ParsedRequirement> parse_requirement(std::string_view line);

}  // namespace gpucheck
