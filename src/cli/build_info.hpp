// The commit this binary was built from, for --version (generated at every
// build by cmake/build_info.cmake; the version is GPUCHECK_VERSION).
#pragma once

namespace gpucheck {

extern const char kGitCommit[];        // "5305ddc1a2b3", "…-dirty", or "unknown"

}  // namespace gpucheck
