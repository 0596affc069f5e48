// nvidia-smi's outputs (-q -x, -q, the plain table) as Facts: the parsers in
// probes/parse/ give NvidiaSmiFacts; everything else stays unknown.
#pragma once

#include <string>
#include <string_view>

#include "facts/facts.hpp"

namespace gpucheck {

enum class NvsmiForm { xml, query, table };

// `source` becomes nvidia_smi.source ("report.txt:3-80 (nvidia-smi -q)").
// Errors: the parser's, with `name` as where (and its line, when it gave one).
Result<Facts> nvsmi_facts(std::string_view text, NvsmiForm form, const std::string& name, const std::string& source);

}  // namespace gpucheck
