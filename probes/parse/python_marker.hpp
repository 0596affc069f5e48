// PEP 508 environment markers: "platform_system == 'Linux' and python_version >= '3.8'".
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace gpucheck {

// What markers are compared against; an unset field is unknown.
struct MarkerEnv {
  std::map<std::string, std::string> values;  // "platform_system" -> "Linux", "python_version" -> "3.10", …
};

// Three-valued: true, false, or nullopt when the marker uses a variable we do
// not know or cannot be parsed. `extra == "x"` is false: an extra is not
// installed unless asked for.
std::optional<bool> evaluate_marker(std::string_view marker, const MarkerEnv& env);

}  // namespace gpucheck
