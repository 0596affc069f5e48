#include "facts/clock_events.hpp"

#include <cstdio>
#include <utility>

namespace gpucheck {

// Bits as defined in nvml.h (NvmlClocksEventReasons,
// https://docs.nvidia.com/deploy/nvml-api/group__nvmlClocksEventReasons.html).
std::vector<std::string> clock_event_names(std::uint64_t mask) {
  static const std::pair<std::uint64_t, const char*> kNames[] = {
      {0x1, "gpu_idle"},          {0x2, "applications_clocks_setting"}, {0x4, "sw_power_cap"},
      {0x8, "hw_slowdown"},       {0x10, "sync_boost"},                 {0x20, "sw_thermal_slowdown"},
      {0x40, "hw_thermal_slowdown"}, {0x80, "hw_power_brake_slowdown"}, {0x100, "display_clock_setting"}};
  std::vector<std::string> out;
  for (auto& [bit, name] : kNames)
    if (mask & bit) {
      out.push_back(name);
      mask &= ~bit;
    }
  for (int b = 0; b < 64 && mask; ++b)
    if (mask & (std::uint64_t{1} << b)) {
      char buf[32];
      std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(std::uint64_t{1} << b));
      out.push_back(buf);
      mask &= ~(std::uint64_t{1} << b);
    }
  return out;
}

}  // namespace gpucheck
