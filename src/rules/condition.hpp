// A rule's condition: all/any/not over comparisons of facts with values or
// with other facts. Evaluation is three-valued: a fact the host (or the
// report) does not show makes a comparison unknown, and a rule fires only on
// a definite yes, so what is not known is never assumed.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "rules/fact_value.hpp"
#include "util/result.hpp"

namespace gpucheck {

enum class Tri { no, yes, unknown };

// The comparison operators (docs/rules.md), with their one spelling.
enum class Op { eq, ne, lt, le, gt, ge, in, not_in, contains, not_contains, prefix, present, absent, empty, not_empty };
std::string_view to_string(Op op);  // "==", "not_in", …

struct Condition {
  enum class Kind { all, any, negate, compare };
  Kind kind = Kind::compare;
  std::vector<Condition> children;     // all, any, negate (one child)
  std::string fact;                    // compare: the fact's name
  Op op = Op::present;
  std::vector<std::string> values;     // the value (one) or values (in, not_in), as written
  std::vector<FactValue> operands;     // the same, typed as the fact's kind once, at load
  std::optional<std::string> other;    // compare with this fact instead of a value
  bool operator==(const Condition&) const = default;
};

// A comparison written in code (a launcher's requirements), typed as a
// loaded one is; `fact` must be in the catalogue.
Condition compare_condition(std::string fact, Op op, std::vector<std::string> values = {});
// Conditions built in code (launch requirements, the Xid catalogue's rules).
Condition all_of(std::vector<Condition> children);
Condition any_of(std::vector<Condition> children);

// `where` names the condition in errors ("matrix/rules/driver.json: /rules/3/when");
// `scope` is the rule's, which limits the facts it may name.
Condition parse_condition(const nlohmann::json& j, const std::string& where, Scope scope,
                          std::vector<Problem>& problems);

Tri evaluate(const Condition& c, const FactMap& facts);

// Every fact a condition names, in order of appearance, without repeats.
void referenced_facts(const Condition& c, std::vector<std::string>& out);

}  // namespace gpucheck
