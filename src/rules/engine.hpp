// Evaluates rules over subjects: no knowledge of its own. A rule fires on a
// subject of its scope when its condition is definitely true; the finding
// quotes every fact the condition names that the subject has, with where it
// was read. The same finding on several GPUs is reported once, naming them all.
#pragma once

#include <vector>

#include "rules/fact_value.hpp"
#include "rules/finding.hpp"
#include "rules/rule.hpp"

namespace gpucheck {

std::vector<Finding> evaluate_rules(const std::vector<Rule>& rules, const std::vector<Subject>& subjects);

// "{driver.version}" -> the fact's text; a fact the subject lacks reads "unknown".
std::string fill_placeholders(const std::string& text, const FactMap& facts);

// Errors first, then warnings, then info; within a severity, rule order.
void sort_findings(std::vector<Finding>& findings);

}  // namespace gpucheck
