// Python distribution names compared as pip compares them.
#pragma once

#include <string>
#include <string_view>

namespace gpucheck {

// PEP 503: lower case, every run of "-", "_" and "." becomes one "-"
// ("Flash_Attn" and "flash-attn" are one distribution).
std::string normalize_dist_name(std::string_view name);

}  // namespace gpucheck
