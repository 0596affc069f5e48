// The kinds of fault an error line states in words that carry no value
// ("unresolvable CDI devices", "Torch not compiled with CUDA enabled"):
// kept in report.stated, read by the rules as error.stated.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

namespace gpucheck {

// Each kind the line states, in the order of the table (a kind twice when
// two markers of it match: add_statement keeps one).
std::vector<std::string_view> stated_kinds(std::string_view line);

// The gfx target a ROCm library or application says it has no code for
// (rocBLAS's "… TensileLibrary.dat … for GPU arch : gfx1036", ollama's
// "amdgpu [0] gfx1103 is not supported by …"): empty when the line refuses
// one without naming it.
std::optional<std::string_view> gfx_target_refused(std::string_view line);

}  // namespace gpucheck
