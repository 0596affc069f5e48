// The plain `nvidia-smi` table, as users paste it into bug reports. Three
// layouts are read: before driver 410 (no "CUDA Version" in the banner),
// 410 to 52x (a "MIG M." row from 450 on), and 530+ (wider first column);
// Windows shows "Driver-Model" (WDDM/TCC) where Linux shows Persistence-M.
// Columns are found by the "|" separators, not by offsets, so widths may vary.
#pragma once
#include <string_view>
#include "facts/facts.hpp"
namespace gpucheck {
// True when the text holds the banner line "| NVIDIA-SMI … Driver Version: …".
bool looks_like_nvsmi_table(std::string_view text);
// Per GPU: index (kept in order), product name as printed (long names end
// in "..."), persistence mode, bus id, memory total, compute mode, MIG mode,
// the volatile uncorrectable ECC count, temperature and power. Errors:
// Reason::malformed with the line, when there is no banner or a GPU row
// cannot be read.
Result<NvidiaSmiFacts> parse_nvsmi_table(std::string_view text);
}  // namespace gpucheck
