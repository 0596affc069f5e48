// The facts an error message states (block_errors.cpp lists the forms):
// shared by `check --from` (a paste's error lines) and `explain MESSAGE`.
#pragma once

#include <string>
#include <string_view>

#include "importers/paste.hpp"

namespace gpucheck {

// True when the line holds one of the forms read, or an error the rules
// know that states no value ("no kernel image is available…").
bool states_error_facts(std::string_view line);

// Adds what the line states to `out`, citing `source`.
void read_error_facts(std::string_view line, const std::string& source, BlockFacts& out);

// `explain MESSAGE`: what the message states joins the facts it is judged
// on (a GPU named only there is judged too); a value the facts already hold
// differently is a conflict in facts.report, as in a paste. Returns whether
// the message stated anything.
bool add_message_facts(Facts& facts, std::string_view message);

}  // namespace gpucheck
