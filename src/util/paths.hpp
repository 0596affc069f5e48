// Splitting the absolute paths the host layer hands out (no file access).
#pragma once

#include <string>
#include <string_view>

namespace gpucheck {

// POSIX dirname: "/usr/lib/libcuda.so.1" -> "/usr/lib", "/bin" -> "/",
// "libcuda.so.1" -> ".".
inline std::string dir_of(std::string_view path) {
  const auto slash = path.rfind('/');
  if (slash == std::string_view::npos) return ".";
  if (slash == 0) return "/";
  return std::string(path.substr(0, slash));
}

// The last component: "/usr/lib/libcuda.so.1" -> "libcuda.so.1".
inline std::string base_of(std::string_view path) {
  const auto slash = path.rfind('/');
  return std::string(slash == std::string_view::npos ? path : path.substr(slash + 1));
}

}  // namespace gpucheck
