// The files a CUDA toolkit and its libraries describe themselves with:
// version.json (11.1+), version.txt (up to 11.0), C headers' #define lines,
// dist-info directory names of NVIDIA's wheels, `nvcc --version`.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "util/result.hpp"

namespace gpucheck {

// {"cuda": {"name": "CUDA SDK", "version": "12.4.1"}, …} -> "12.4.1"
Result<std::string> cuda_version_from_version_json(std::string_view text);
// "CUDA Version 11.0.228" -> "11.0.228"
Result<std::string> cuda_version_from_version_txt(std::string_view text);
// "Cuda compilation tools, release 13.0, V13.0.88" -> "13.0.88"
Result<std::string> cuda_version_from_nvcc(std::string_view text);

// Every "#define NAME <integer>" of a header.
std::map<std::string, long> integer_defines(std::string_view header);

// How much of a header the version probes read. NVIDIA's headers define
// their versions in the first 16 KiB (cuda.h at 14 KB, the rest under 7 KB)
// while cuda_runtime_api.h is 600 KB: reading it whole cost more than the
// rest of the toolkit probe.
inline constexpr std::size_t kVersionHeaderPrefix = 64 * 1024;
// "9.1.0" from the named macros, all of which must be present.
std::optional<std::string> version_from_defines(const std::map<std::string, long>& defines,
                                                const std::vector<std::string>& names);

struct DistInfoName {
  std::string name;     // as in the directory name: "nvidia_cudnn_cu13"
  std::string version;  // "9.19.0.56"
};
// "nvidia_cudnn_cu13-9.19.0.56.dist-info" -> {nvidia_cudnn_cu13, 9.19.0.56}
std::optional<DistInfoName> parse_dist_info_dir(std::string_view dirname);

// The mount points (fifth field) of /proc/self/mountinfo, octal escapes decoded.
std::vector<std::string> mountinfo_mount_points(std::string_view text);

}  // namespace gpucheck
