// `gpucheck explain "<error message>"`: the rules whose known error messages
// match, each answering two questions apart: what the message itself means
// (from what the message alone states), and whether the facts at hand (this
// host, --root, a --from report) show the cause, from those facts alone.
#pragma once

#include <string>
#include <vector>

#include "rules/fact_value.hpp"
#include "rules/finding.hpp"
#include "rules/rule.hpp"

namespace gpucheck {

enum class Applies { here, not_here, cannot_tell };
std::string_view to_string(Applies a);

struct Explanation {
  const Rule* rule = nullptr;
  std::string matched;                  // the rule's `explains` phrase that matched
  // The rule's message on what the message states (a GPU, a version), or
  // its message with each fact the message does not state named.
  std::string meaning;
  Applies applies = Applies::cannot_tell;  // on the facts at hand alone
  std::vector<Finding> findings;        // when it applies
  std::vector<std::string> unknown;     // facts the condition needs that no subject has
};

// Matching ignores case and runs of spaces; a phrase matches when the message
// contains it, or (for a short query) when it contains the message.
std::vector<Explanation> explain(const std::string& message, const std::vector<Rule>& rules,
                                 const std::vector<Subject>& message_subjects, const std::vector<Subject>& subjects);

}  // namespace gpucheck
