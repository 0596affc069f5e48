// What nvidia-smi calls the driver's and CUDA's versions, in every form it
// prints them. R610 renamed both in the table banner ("KMD Version:",
// "CUDA UMD Version:"; two real captures in tests/data/nvsmi_table/), and
// the -q and -q -x forms are expected to follow, so each reader accepts
// the old and the new names from this one list.
#pragma once
#include <array>
#include <string_view>
namespace gpucheck {
struct NvsmiLabel {
  std::string_view text;  // the table banner and `-q`: "Driver Version"
  std::string_view xml;   // the `-q -x` element: "driver_version"
};
// The kernel module's version (the driver's, before R610).
inline constexpr std::array<NvsmiLabel, 2> kNvsmiDriverLabels{{{"Driver Version", "driver_version"}, {"KMD Version", "kmd_version"}}};
// The newest CUDA the user-mode driver (libcuda) supports.
inline constexpr std::array<NvsmiLabel, 2> kNvsmiCudaLabels{{{"CUDA Version", "cuda_version"}, {"CUDA UMD Version", "cuda_umd_version"}}};

// False for nvidia-smi's words for "no value": "N/A", "Not Found" (CUDA
// Version where no libcuda loads), "[Not Supported]", "Unknown Error", "[Requested
// functionality has been deprecated]".
inline bool nvsmi_states_a_value(std::string_view v) {
  return !v.empty() && v != "N/A" && v != "Not Found" && v != "Unknown Error" && v.find("Not Supported") == std::string_view::npos &&
         v.find("Requested functionality") == std::string_view::npos;
}
}  // namespace gpucheck
