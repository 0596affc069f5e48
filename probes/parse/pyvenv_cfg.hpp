// A venv's pyvenv.cfg (PEP 405).
#pragma once

#include <map>
#include <string>
#include <string_view>

namespace gpucheck {

// pyvenv.cfg: "key = value" lines.
std::map<std::string, std::string> parse_pyvenv_cfg(std::string_view text);

}  // namespace gpucheck
