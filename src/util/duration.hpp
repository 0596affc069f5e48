// A length of time as people type it on a command line: "30" (seconds),
// "30s", "500ms", "2m", "1h", "1.5m".
#pragma once

#include <optional>
#include <string_view>

namespace gpucheck {

// Seconds; nullopt for anything else (a unit it does not know, a negative,
// empty or not-finite amount).
std::optional<double> parse_duration_seconds(std::string_view text);

}  // namespace gpucheck
