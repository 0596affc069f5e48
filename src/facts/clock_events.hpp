// NVML's clock-event (throttle) reasons by name, as nvidia-smi spells them:
// the sustained kernel run records NVML's bit mask, rules and reports use names.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace gpucheck {

// The names of the nvmlClocksEventReasons bits set in `mask` ("sw_power_cap",
// …); a bit nvml.h does not name is "0x…".
std::vector<std::string> clock_event_names(std::uint64_t mask);

}  // namespace gpucheck
