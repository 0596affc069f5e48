#include "rules/condition.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "matrix/strict_json.hpp"
#include "matrix/object_reader.hpp"
#include "rules/fact_catalogue.hpp"
#include "util/strings.hpp"
#include "util/version.hpp"

namespace gpucheck {

using nlohmann::json;

namespace {

constexpr const char* kOrderOps[] = {"<", "<=", ">", ">="};
constexpr const char* kAllOps[] = {"==", "!=", "<", "<=", ">", ">=", "in", "not_in", "contains", "not_contains",
                                   "prefix", "present", "absent", "empty", "not_empty"};

bool is_one_of(std::string_view op, std::initializer_list<const char*> ops) {
  return std::any_of(ops.begin(), ops.end(), [&](const char* o) { return op == o; });
}
bool is_order(std::string_view op) {
  return std::any_of(std::begin(kOrderOps), std::end(kOrderOps), [&](const char* o) { return op == o; });
}

// Which operators each kind of fact allows.
bool op_allowed(FactKind k, std::string_view op) {
  if (is_one_of(op, {"present", "absent"})) return true;
  switch (k) {
    case FactKind::version:
    case FactKind::number: return is_one_of(op, {"==", "!=", "in", "not_in"}) || is_order(op);
    case FactKind::text: return is_one_of(op, {"==", "!=", "in", "not_in", "prefix"});
    case FactKind::boolean: return is_one_of(op, {"==", "!="});
    case FactKind::list: return is_one_of(op, {"contains", "not_contains", "empty", "not_empty"});
  }
  return false;
}

bool needs_value(std::string_view op) { return !is_one_of(op, {"present", "absent", "empty", "not_empty"}); }

// The text of a JSON scalar as a condition value, checked against the fact's kind.
std::optional<std::string> value_text(const json& v, FactKind k, std::string& why) {
  switch (k) {
    case FactKind::boolean:
      if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
      why = "expected true or false";
      return std::nullopt;
    case FactKind::number:
      if (v.is_number()) return FactValue::of_number(v.get<double>(), "").text;
      why = "expected a number";
      return std::nullopt;
    case FactKind::version:
      if (v.is_string() && Version::parse(v.get<std::string>())) return v.get<std::string>();
      why = "expected a version string like \"12.1\"";
      return std::nullopt;
    case FactKind::text:
    case FactKind::list:
      if (v.is_string()) return v.get<std::string>();
      why = "expected a string";
      return std::nullopt;
  }
  return std::nullopt;
}

void parse_compare(Condition& c, const json& j, const std::string& where, Scope scope,
                   std::vector<Problem>& problems) {
  auto bad = [&](const std::string& at, std::string detail) {
    problems.push_back(Problem{Reason::malformed, where + at, std::move(detail)});
  };
  for (auto& [key, _] : j.items())
    if (!is_one_of(key, {"fact", "op", "value", "values", "other"}))
      bad("/" + key, "unknown key \"" + key + "\" in a comparison (allowed: fact, op, value, values, other)");
  if (!j.contains("fact") || !j["fact"].is_string()) return bad("/fact", "expected the name of a fact (a string)");
  c.fact = j["fact"].get<std::string>();
  const FactSpec* spec = find_fact_spec(c.fact);
  if (!spec) return bad("/fact", "unknown fact \"" + c.fact + "\" (docs/rules.md lists the facts)");
  if (!scope_includes(scope, spec->scope))
    return bad("/fact", "fact \"" + c.fact + "\" belongs to scope \"" + std::string(to_string(spec->scope)) +
                            "\", which a rule of scope \"" + std::string(to_string(scope)) + "\" does not see");
  if (!j.contains("op") || !j["op"].is_string()) return bad("/op", "expected an operator (a string)");
  c.op = j["op"].get<std::string>();
  if (std::find_if(std::begin(kAllOps), std::end(kAllOps), [&](const char* o) { return c.op == o; }) == std::end(kAllOps))
    return bad("/op", "unknown operator \"" + c.op + "\"");
  if (!op_allowed(spec->kind, c.op))
    return bad("/op", "operator \"" + c.op + "\" does not apply to " + std::string(to_string(spec->kind)) + " fact \"" +
                          c.fact + "\"");
  const bool list_op = c.op == "in" || c.op == "not_in";
  if (!needs_value(c.op)) {
    if (j.contains("value") || j.contains("values") || j.contains("other"))
      bad("", "operator \"" + c.op + "\" takes no value");
    return;
  }
  const FactKind value_kind = spec->kind == FactKind::list ? FactKind::text : spec->kind;
  if (j.contains("other")) {
    if (!j["other"].is_string()) return bad("/other", "expected the name of a fact (a string)");
    c.other = j["other"].get<std::string>();
    const FactSpec* o = find_fact_spec(*c.other);
    if (!o) return bad("/other", "unknown fact \"" + *c.other + "\"");
    if (!scope_includes(scope, o->scope))
      return bad("/other", "fact \"" + *c.other + "\" is not visible to a rule of scope \"" + std::string(to_string(scope)) + "\"");
    const bool fits = list_op ? o->kind == FactKind::list
                              : (o->kind == value_kind ||
                                 (value_kind == FactKind::text && o->kind == FactKind::version) ||
                                 (value_kind == FactKind::version && o->kind == FactKind::text));
    if (!fits) bad("/other", "fact \"" + *c.other + "\" (" + std::string(to_string(o->kind)) + ") cannot be compared with \"" +
                             c.fact + "\" by \"" + c.op + "\"");
    return;
  }
  std::string why;
  if (list_op) {
    if (!j.contains("values") || !j["values"].is_array() || j["values"].empty())
      return bad("/values", "operator \"" + c.op + "\" needs \"values\": a non-empty array");
    for (std::size_t i = 0; i < j["values"].size(); ++i) {
      auto t = value_text(j["values"][i], value_kind, why);
      if (!t) bad("/values/" + std::to_string(i), why + ", found " + describe_json(j["values"][i]));
      else c.values.push_back(*t);
    }
    return;
  }
  if (!j.contains("value")) return bad("/value", "operator \"" + c.op + "\" needs a \"value\" or an \"other\" fact");
  auto t = value_text(j["value"], value_kind, why);
  if (!t) return bad("/value", why + ", found " + describe_json(j["value"]));
  c.values.push_back(*t);
}

// Orders two values of one kind; nullopt when either does not parse.
std::optional<int> order(FactKind k, const std::string& a, const std::string& b) {
  if (k == FactKind::number) {
    char* end = nullptr;
    const double x = std::strtod(a.c_str(), &end);
    const double y = std::strtod(b.c_str(), nullptr);
    if (end == a.c_str()) return std::nullopt;
    return x < y ? -1 : x > y ? 1 : 0;
  }
  if (k == FactKind::version) {
    auto x = Version::parse(a), y = Version::parse(b);
    if (!x || !y) return std::nullopt;
    const auto o = *x <=> *y;
    return o < 0 ? -1 : o > 0 ? 1 : 0;
  }
  return a == b ? 0 : 1;
}

// Equality as the kind means it: 12.2 == 12.2.0, 8.6 in ["8.6"].
bool same(FactKind k, const std::string& a, const std::string& b) {
  if (k == FactKind::version || k == FactKind::number) {
    auto o = order(k, a, b);
    return o && *o == 0;
  }
  return a == b;
}

bool list_has(const std::vector<std::string>& items, const std::string& v) {
  return std::any_of(items.begin(), items.end(), [&](auto& i) {
    if (i == v) return true;
    auto x = Version::parse(i), y = Version::parse(v);
    return x && y && x->suffix().empty() && y->suffix().empty() && *x == *y;
  });
}

Tri from_bool(bool b) { return b ? Tri::yes : Tri::no; }

Tri compare(const Condition& c, const FactMap& facts) {
  auto it = facts.find(c.fact);
  if (c.op == "present") return from_bool(it != facts.end());
  if (c.op == "absent") return from_bool(it == facts.end());
  if (it == facts.end()) return Tri::unknown;
  const FactValue& f = it->second;
  if (c.op == "empty") return from_bool(f.items.empty());
  if (c.op == "not_empty") return from_bool(!f.items.empty());
  std::vector<std::string> values = c.values;
  if (c.other) {
    auto o = facts.find(*c.other);
    if (o == facts.end()) return Tri::unknown;
    values = o->second.kind == FactKind::list ? o->second.items : std::vector<std::string>{o->second.text};
  }
  if (c.op == "in" || c.op == "not_in") {
    const bool in = std::any_of(values.begin(), values.end(), [&](auto& v) { return same(f.kind, f.text, v); });
    return from_bool(c.op == "in" ? in : !in);
  }
  if (values.empty()) return Tri::unknown;
  const std::string& v = values.front();
  if (c.op == "contains") return from_bool(list_has(f.items, v));
  if (c.op == "not_contains") return from_bool(!list_has(f.items, v));
  if (c.op == "prefix") return from_bool(starts_with(f.text, v));
  if (c.op == "==") return from_bool(same(f.kind, f.text, v));
  if (c.op == "!=") return from_bool(!same(f.kind, f.text, v));
  const auto o = order(f.kind, f.text, v);
  if (!o) return Tri::unknown;
  if (c.op == "<") return from_bool(*o < 0);
  if (c.op == "<=") return from_bool(*o <= 0);
  if (c.op == ">") return from_bool(*o > 0);
  if (c.op == ">=") return from_bool(*o >= 0);
  return Tri::unknown;
}

}  // namespace

Condition parse_condition(const json& j, const std::string& where, Scope scope,
                          std::vector<Problem>& problems) {
  Condition c;
  if (!j.is_object()) {
    problems.push_back(Problem{Reason::malformed, where, "expected a condition object, found " + describe_json(j)});
    return c;
  }
  auto group = [&](const char* key, Condition::Kind kind) {
    c.kind = kind;
    const auto& arr = j[key];
    if (j.size() != 1) problems.push_back(Problem{Reason::malformed, where, std::string("\"") + key + "\" must be the only key of its object"});
    if (!arr.is_array() || arr.empty()) {
      problems.push_back(Problem{Reason::malformed, where + "/" + key, "expected a non-empty array of conditions"});
      return;
    }
    for (std::size_t i = 0; i < arr.size(); ++i)
      c.children.push_back(parse_condition(arr[i], where + "/" + key + "/" + std::to_string(i), scope, problems));
  };
  if (j.contains("all")) group("all", Condition::Kind::all);
  else if (j.contains("any")) group("any", Condition::Kind::any);
  else if (j.contains("not")) {
    c.kind = Condition::Kind::negate;
    if (j.size() != 1) problems.push_back(Problem{Reason::malformed, where, "\"not\" must be the only key of its object"});
    c.children.push_back(parse_condition(j["not"], where + "/not", scope, problems));
  } else {
    parse_compare(c, j, where, scope, problems);
  }
  return c;
}

Tri evaluate(const Condition& c, const FactMap& facts) {
  switch (c.kind) {
    case Condition::Kind::compare: return compare(c, facts);
    case Condition::Kind::negate: {
      const Tri t = evaluate(c.children.front(), facts);
      return t == Tri::unknown ? t : t == Tri::yes ? Tri::no : Tri::yes;
    }
    case Condition::Kind::all: {
      Tri out = Tri::yes;
      for (auto& ch : c.children) {
        const Tri t = evaluate(ch, facts);
        if (t == Tri::no) return Tri::no;
        if (t == Tri::unknown) out = Tri::unknown;
      }
      return out;
    }
    case Condition::Kind::any: {
      Tri out = Tri::no;
      for (auto& ch : c.children) {
        const Tri t = evaluate(ch, facts);
        if (t == Tri::yes) return Tri::yes;
        if (t == Tri::unknown) out = Tri::unknown;
      }
      return out;
    }
  }
  return Tri::unknown;
}

void referenced_facts(const Condition& c, std::vector<std::string>& out) {
  auto add = [&](const std::string& f) {
    if (!f.empty() && std::find(out.begin(), out.end(), f) == out.end()) out.push_back(f);
  };
  if (c.kind == Condition::Kind::compare) {
    add(c.fact);
    if (c.other) add(*c.other);
  }
  for (auto& ch : c.children) referenced_facts(ch, out);
}

}  // namespace gpucheck
