// nvidia-smi's reports: `nvidia-smi -q -x` (XML, DTD v10 to v13, drivers
// 418 to 59x) and `nvidia-smi -q` (text). Both are read into one tree and
// mapped by a single field table, so a field added for one form is added
// for the other in the same line.
#pragma once
#include <string_view>
#include "facts/facts.hpp"
namespace gpucheck {
// Errors: Reason::malformed with pugixml's description and byte offset.
Result<NvidiaSmiFacts> parse_nvsmi_xml(std::string_view xml);
// Errors: Reason::malformed when no "GPU xxxx:xx:xx.x" section is found.
Result<NvidiaSmiFacts> parse_nvsmi_text(std::string_view text);
}  // namespace gpucheck
