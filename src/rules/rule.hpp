// A rule of the matrix: knowledge as data. The engine (engine.hpp) only
// evaluates `when` over a subject's facts and fills the message in.
#pragma once

#include <string>
#include <vector>

#include "matrix/matrix_document.hpp"
#include "rules/condition.hpp"
#include "rules/finding.hpp"

namespace gpucheck {

struct Rule {
  std::string id;                     // "driver-too-old-for-framework-cuda"
  std::string category;               // categories.hpp
  Severity severity = Severity::warning;
  Scope scope = Scope::host;
  std::string title;                  // "Driver too old for torch's CUDA"
  Condition when;
  std::string message;                // "{framework.name} {framework.version} needs …": {fact} placeholders
  std::string fix;                    // placeholders too
  Action action = Action::none;       // what an operator or a scheduler does (rules/action.hpp)
  std::vector<std::string> explains;  // error messages this condition explains (for `gpucheck explain`)
  std::vector<std::string> sources;   // https URLs
  std::string defined_in;             // "matrix/rules/driver.json: /rules/3"
  bool operator==(const Rule&) const = default;
};

struct RuleCheck {
  std::vector<Rule> rules;
  std::vector<Problem> problems;
};

// The "rules" arrays of the documents, validated: known category, scope and
// facts, placeholders that name facts the rule's scope sees, unique ids.
RuleCheck parse_rules(const std::vector<MatrixDocument>& docs);
struct ParsedDocument;  // matrix/strict_json.hpp: the same documents, parsed once
RuleCheck parse_rules(const std::vector<ParsedDocument>& docs);

}  // namespace gpucheck
