// A venv's pyvenv.cfg (PEP 405): the interpreter it was made from, its
// version, and whether the system's site-packages are seen.
#include "parse/pyvenv_cfg.hpp"

#include "util/strings.hpp"

namespace gpucheck {

std::map<std::string, std::string> parse_pyvenv_cfg(std::string_view text) {
  std::map<std::string, std::string> out;
  for (auto line : split_lines(text)) {
    const auto eq = line.find('=');
    if (eq == std::string_view::npos) continue;
    out[to_lower(trim(line.substr(0, eq)))] = std::string(trim(line.substr(eq + 1)));
  }
  return out;
}

}  // namespace gpucheck
