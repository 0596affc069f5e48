// The commit this binary was built from, for --version (generated at every
// build by cmake/build_info.cmake; the version is GPUCHECK_VERSION).
#pragma once

namespace gpucheck {

extern const char kGitCommit[];        // "5305ddc1a2b3", "…-dirty", or "unknown"
extern const char kCommitDate[];       // "2026-12-04", or "" outside a git checkout

}  // namespace gpucheck
