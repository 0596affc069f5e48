// What the frameworks say of themselves once imported inside the
// interpreter, with --deep.
#pragma once

#include <string_view>

#include "facts/facts.hpp"
#include "util/result.hpp"

namespace gpucheck {

// The deep probe's answer (probes/deep_probe.py): one JSON object.
Result<DeepProbeFacts> parse_deep_answer(std::string_view text);

}  // namespace gpucheck
