// The attribute files of /sys/class/infiniband/DEV/ports/N
// (Documentation/ABI/stable/sysfs-class-infiniband).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace gpucheck {

// "4: ACTIVE" -> "ACTIVE"; "5: LinkUp" -> "LinkUp": the word after the
// number. nullopt when there is none.
std::optional<std::string> ib_state_word(std::string_view text);
// "400 Gb/sec (4X NDR)" -> 400; "2.5 Gb/sec (1X SDR)" -> 2.5.
std::optional<double> ib_rate_gbps(std::string_view text);

}  // namespace gpucheck
