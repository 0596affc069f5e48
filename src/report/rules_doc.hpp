// docs/rules.md, generated from the matrix (`gpucheck matrix docs`), so the
// documentation of every rule is the rule itself; a test keeps the file current.
#pragma once

#include <string>

#include "rules/knowledge.hpp"

namespace gpucheck {

std::string render_rules_markdown(const Knowledge& k);
// The table of what a verdict rests on (rules/verdict_basis.hpp), as
// docs/exit-codes.md holds it; a test keeps the two the same.
std::string render_verdict_basis_markdown();
// A condition in one line: all(gpu.vendor == "nvidia", gpu.kernel_driver == "none").
std::string describe_condition(const Condition& c);

}  // namespace gpucheck
