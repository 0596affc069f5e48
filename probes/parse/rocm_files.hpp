// The ROCm stack's own files, parsed from strings (never paths, so they test
// without I/O): KFD topology `properties` files, /opt/rocm*/.info/version,
// rocm_version.h and hip_version.h. Bad input gives a Problem or a list of
// complaints, never a crash.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "util/result.hpp"

namespace gpucheck {

// A KFD `properties` file: one "name value" pair a line, the value an
// unsigned decimal (the kernel prints them with %llu; libhsakmt reads them
// back with sscanf("%s %llu"), ROCT-Thunk-Interface src/topology.c).
struct KfdProperties {
  std::map<std::string, std::uint64_t> values;
  std::vector<std::string> bad_lines;  // lines that were not "name number", quoted for a note
  std::optional<std::uint64_t> get(const std::string& key) const {
    auto it = values.find(key);
    return it == values.end() ? std::nullopt : std::optional<std::uint64_t>(it->second);
  }
};

// Fails (malformed) only when not one line could be read.
Result<KfdProperties> parse_kfd_properties(std::string_view text);

// gfx_target_version (90402) -> "gfx942": major = v / 10000 % 100 in decimal,
// then minor = v / 100 % 100 and stepping = v % 100, each in hex, as ROCm's
// rocm_agent_enumerator names a KFD node (readFromKFD(),
// https://github.com/ROCm/rocminfo/blob/c6f7a17c85e0cdd75bf062e7a3490e831c87eb94/rocm_agent_enumerator)
// with libhsakmt's HSA_GET_GFX_VERSION_MAJOR/MINOR/STEP (src/libhsakmt.h).
// 90010 -> "gfx90a", 100302 -> "gfx1032", 110000 -> "gfx1100". 0 (a CPU
// node) and values that cannot be a target give nullopt.
std::optional<std::string> gfx_target_name(std::uint64_t gfx_target_version);

// /opt/rocm*/.info/version (and .info/version-dev): rocm-core writes
// "MAJOR.MINOR.PATCH-BUILD\n" up to ROCm 6.4 ("6.0.2-115") and
// "MAJOR.MINOR.PATCH[.POINT]\n" after (rocm-core CMakeLists.txt). Returns the
// dotted version without the build number ("6.0.2").
Result<std::string> parse_rocm_version_file(std::string_view text);


// include/rocm-core/rocm_version.h (or the older include/rocm_version.h):
// ROCM_VERSION_MAJOR/MINOR/PATCH -> "6.0.2".
Result<std::string> parse_rocm_version_header(std::string_view text);

// include/hip/hip_version.h: HIP_VERSION_MAJOR/MINOR/PATCH and
// HIP_VERSION_GITHASH -> "6.0.32831-204d35d16", hipconfig's spelling.
Result<std::string> parse_hip_version_header(std::string_view text);

}  // namespace gpucheck
