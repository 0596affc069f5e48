// How `gpucheck fit` writes its numbers: counts with thousands separators
// (exact figures read against published ones), rates and sizes to three
// significant figures (estimates and ceilings claim no more).
#pragma once

#include <cstdint>
#include <string>

namespace gpucheck::fit {

std::string count_text(std::int64_t n);  // "68,976,648,192"
std::string number_text(double v);       // "2,039", "312", "1.5", "0.0312"
std::string bytes_text(double bytes);    // decimal, as bandwidths are: "138 GB", "2.62 MB"
std::string gib_text(std::int64_t bytes);  // binary, as GPUs report memory: "64.2 GiB"
std::string flops_text(double flops);    // "140 GFLOP"

}  // namespace gpucheck::fit
