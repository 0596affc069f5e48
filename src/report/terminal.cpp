#include "report/terminal.hpp"

namespace gpucheck {

std::string Style::wrap(const char* code, std::string_view s) const {
  if (!color_) return std::string(s);
  return "\x1b[" + std::string(code) + "m" + std::string(s) + "\x1b[0m";
}

}  // namespace gpucheck
