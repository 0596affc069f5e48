#include <algorithm>
#include <set>

#include "matrix/matrix_values.hpp"
#include "matrix/object_reader.hpp"
#include "matrix/strict_json.hpp"
#include "rules/categories.hpp"
#include "rules/fact_catalogue.hpp"
#include "rules/rule.hpp"

namespace gpucheck {

using nlohmann::json;

namespace {

std::optional<std::string> category_check(std::string_view s) {
  if (known_category(s)) return std::nullopt;
  return "one of the categories in docs/rules.md (\"driver-too-old\", \"arch-unsupported\", …)";
}
std::optional<std::string> severity_check(std::string_view s) {
  if (parse_severity(s)) return std::nullopt;
  return "\"error\", \"warning\" or \"info\"";
}
std::optional<std::string> action_check(std::string_view s) {
  if (action_named(s)) return std::nullopt;
  return action_names();
}
std::optional<std::string> scope_check(std::string_view s) {
  if (scope_named(s)) return std::nullopt;
  return scope_names();
}

// "{gpu.name}" placeholders must name facts the rule's scope sees.
void check_placeholders(const std::string& text, const std::string& where, Scope scope,
                        std::vector<Problem>& problems) {
  for (std::size_t open = text.find('{'); open != std::string::npos; open = text.find('{', open + 1)) {
    const auto close = text.find('}', open);
    if (close == std::string::npos) {
      problems.push_back(Problem{Reason::malformed, where, "a '{' without its '}'"});
      return;
    }
    const std::string name = text.substr(open + 1, close - open - 1);
    const FactSpec* spec = find_fact_spec(name);
    if (!spec) problems.push_back(Problem{Reason::malformed, where, "placeholder {" + name + "} names no fact"});
    else if (!scope_includes(scope, spec->scope))
      problems.push_back(Problem{Reason::malformed, where,
                                 "placeholder {" + name + "} is not visible to a rule of scope \"" + std::string(to_string(scope)) + "\""});
  }
}

Rule read_rule(const json& j, const std::string& doc, const std::string& pointer, std::vector<Problem>& problems) {
  Rule r;
  r.defined_in = doc + ": " + pointer;
  if (!j.is_object()) {
    problems.push_back(Problem{Reason::malformed, r.defined_in, "expected a rule object, found " + describe_json(j)});
    return r;
  }
  ObjectReader o(j, doc, pointer, problems);
  std::string severity = "warning", scope, action;
  o.string("id", r.id, matrix_values::identifier);
  o.string("category", r.category, category_check);
  o.string("severity", severity, severity_check);
  o.string("scope", scope, scope_check);
  const auto known = scope_named(scope);
  if (known) r.scope = *known;
  o.string("title", r.title, matrix_values::non_empty);
  o.string("message", r.message, matrix_values::non_empty);
  o.string("fix", r.fix, matrix_values::non_empty);
  o.string("action", action, action_check);
  if (auto a = action_named(action)) r.action = *a;
  o.string_list("explains", r.explains, matrix_values::non_empty, false);
  o.sources(r.sources);
  // "when" is a condition tree, which the object reader does not know, so
  // unknown keys are checked here rather than by reject_unknown_keys().
  if (j.contains("when")) {
    if (known) r.when = parse_condition(j["when"], o.where("when"), r.scope, problems);
  } else {
    problems.push_back(Problem{Reason::malformed, o.where("when"), "required field \"when\" is missing (expected a condition)"});
  }
  for (auto& [key, _] : j.items())
    if (key != "when" && key != "id" && key != "category" && key != "severity" && key != "scope" && key != "title" &&
        key != "message" && key != "fix" && key != "action" && key != "explains" && key != "sources")
      problems.push_back(Problem{Reason::malformed, o.where(key),
                                 "unknown key \"" + key + "\" (allowed: id, category, severity, scope, title, when, "
                                 "message, fix, action, explains, sources)"});
  if (auto s = parse_severity(severity)) r.severity = *s;
  if (known) {
    check_placeholders(r.message, o.where("message"), r.scope, problems);
    check_placeholders(r.fix, o.where("fix"), r.scope, problems);
  }
  return r;
}

}  // namespace

RuleCheck parse_rules(const std::vector<MatrixDocument>& docs) { return parse_rules(parse_documents(docs)); }

RuleCheck parse_rules(const std::vector<ParsedDocument>& docs) {
  RuleCheck out;
  std::set<std::string> ids;
  for (auto& d : docs) {
    const auto& j = d.root;
    if (!j) continue;  // the matrix loader reports unreadable documents
    if (!j->is_object() || !j->contains("rules")) continue;
    const json& rules = (*j)["rules"];
    if (!rules.is_array()) continue;  // reported by the matrix loader
    for (std::size_t i = 0; i < rules.size(); ++i) {
      const std::string pointer = "/rules/" + std::to_string(i);
      const std::size_t before = out.problems.size();
      Rule r = read_rule(rules[i], d.name, pointer, out.problems);
      if (!r.id.empty() && !ids.insert(r.id).second)
        out.problems.push_back(Problem{Reason::malformed, d.name + ": " + pointer + "/id", "duplicate rule id \"" + r.id + "\""});
      if (out.problems.size() == before) out.rules.push_back(std::move(r));
    }
  }
  return out;
}

}  // namespace gpucheck
