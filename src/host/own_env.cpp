#include "host/own_env.hpp"

#include <cstdlib>

namespace gpucheck {

std::optional<std::string> own_env(const std::string& name) {
  const char* v = std::getenv(name.c_str());
  if (!v) return std::nullopt;
  return std::string(v);
}

}  // namespace gpucheck
