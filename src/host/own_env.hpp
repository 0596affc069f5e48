// gpucheck's own environment: its configuration (GPUCHECK_*, NO_COLOR,
// TERM), never the probed machine's, which Host::env answers (under --root
// that is a snapshot's recorded variables, not ours).
#pragma once

#include <optional>
#include <string>

namespace gpucheck {

// The variable as this process received it; unset is nullopt, set-but-empty is "".
std::optional<std::string> own_env(const std::string& name);

}  // namespace gpucheck
