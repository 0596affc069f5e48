// What `--from` read of a paste, for the text report: the blocks it
// recognised with their lines, and the lines it did not understand (a
// short list, like a linter's), so a user sees what gpucheck saw.
#pragma once

#include "facts/facts.hpp"
#include "report/text_writer.hpp"

namespace gpucheck {

// Nothing for facts not read from a paste (facts.report absent).
void paste_section(Writer& w, const Facts& facts);

}  // namespace gpucheck
