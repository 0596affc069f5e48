// A clean-room minimum of the ROCm SMI library API (librocm_smi64), enough to
// ask it whether it initialises, what it is and how many GPUs it monitors: no
// SDK needed to build, and the library is only ever dlopen'ed. Signatures,
// the rsmi_version_t layout and status values as documented in rocm_smi.h
// (https://github.com/ROCm/rocm_smi_lib/blob/develop/include/rocm_smi/rocm_smi.h;
// the same in Debian 12's librocm-smi-dev 5.2.3).
#pragma once

#include <cstdint>

namespace gpucheck::rsmi {

using rsmi_status_t = std::uint32_t;  // an enum in C, of which 0xFFFFFFFF is a value
inline constexpr rsmi_status_t kSuccess = 0;

// rsmi_version_t: three uint32_t and a build string.
struct rsmi_version_t {
  std::uint32_t major;
  std::uint32_t minor;
  std::uint32_t patch;
  const char* build;
};

// Every entry point we use, once: X(name, return, parameters). Only rsmi_init
// is required; the rest are used when the library has them (the missing ones
// are recorded), never chosen by the library's version string.
#define GPUCHECK_RSMI_ENTRY_POINTS(X)                                          \
  X(rsmi_init, rsmi_status_t, (std::uint64_t))                                 \
  X(rsmi_shut_down, rsmi_status_t, ())                                         \
  X(rsmi_status_string, rsmi_status_t, (rsmi_status_t, const char**))          \
  X(rsmi_version_get, rsmi_status_t, (rsmi_version_t*))                       \
  X(rsmi_num_monitor_devices, rsmi_status_t, (std::uint32_t*))

}  // namespace gpucheck::rsmi
