// What one input may become. A report or snapshot is one node's: the
// largest node gpucheck knows has 16 GPUs, so a report listing thousands is
// a mistake or an attack, and reading it whole would cost gigabytes
// (docs/robustness.md, "Limits", names each with what exceeding it says).
#pragma once

#include <cstddef>

#include "facts/facts.hpp"

namespace gpucheck {

inline constexpr std::size_t kMaxReportBytes = std::size_t{64} << 20;  // a --from report
inline constexpr std::size_t kMaxReportLines = std::size_t{4} << 20;   // 16 bytes a line on average at 64 MiB
inline constexpr std::size_t kMaxGpusPerNode = 1024;
// A large conda base environment lists about 500; at 36 bytes a `pip
// freeze` line, 100,000 is 3.6 MB of packages. Readers stop keeping them
// one past the limit, so memory stays bounded by it, not by the input.
inline constexpr std::size_t kMaxPackagesPerEnv = 100000;

// The most GPUs any one source in f lists (nvidia-smi, the CUDA driver API,
// /proc/driver/nvidia, KFD, the PCI bus).
std::size_t gpus_listed(const Facts& f);
// The most packages any one Python environment of f lists.
std::size_t packages_listed(const Facts& f);

}  // namespace gpucheck
