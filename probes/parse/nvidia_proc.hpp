// The NVIDIA kernel module's own files under /proc/driver/nvidia.
#pragma once
#include <string_view>
#include "facts/facts.hpp"
namespace gpucheck {
// /proc/driver/nvidia/version. Forms seen on real hosts:
//  "NVRM version: NVIDIA UNIX x86_64 Kernel Module  535.104.05  Sat Aug 19 ..."      (proprietary)
//  "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  565.57.01  Release Build ..." (open)
// Errors: Reason::malformed when no NVRM line or no version can be found.
Result<KernelModule> parse_nvrm_version(std::string_view text);
// /proc/driver/nvidia/gpus/<bus>/information: "Key: \t value" lines.
ProcGpu parse_gpu_information(std::string_view text);
}  // namespace gpucheck
