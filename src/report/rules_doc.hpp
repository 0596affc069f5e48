// docs/rules.md, generated from the matrix (`gpucheck matrix docs`), so the
// documentation of every rule is the rule itself; a test keeps the file current.
#pragma once

#include <string>

#include "rules/knowledge.hpp"

namespace gpucheck {

std::string render_rules_markdown(const Knowledge& k);
// A condition in one line: all(gpu.vendor == "nvidia", gpu.kernel_driver == "none").
std::string describe_condition(const Condition& c);

}  // namespace gpucheck
