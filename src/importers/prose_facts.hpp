// What a paste's prose names that a judgement needs, read only where no
// block of the paste shows it (importers/import_report.cpp).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "importers/paste.hpp"

namespace gpucheck {

// A GPU model: "RTX 5060 Ti", "A100", "K80", or nothing.
std::optional<std::string> gpu_named_in_prose(std::string_view line);

// ollama's release: "updated ollama to v0.1.19" -> "0.1.19".
std::optional<std::string> ollama_version_in_prose(std::string_view line);

// ROCm's release: "tag `rocm-6.0.2`", "ROCm 6.1.2" -> "6.0.2".
std::optional<std::string> rocm_version_in_prose(std::string_view line);

// After the blocks: what no block showed and the lines not understood
// name (a GPU; else the gfx target a ROCm library refused; ROCm's and
// ollama's releases) joins the facts; each line read becomes understood
// and a block of `reading`.
void read_prose_facts(const PasteText& p, std::vector<char>& understood, Facts& facts, ReportReading& reading);

}  // namespace gpucheck
