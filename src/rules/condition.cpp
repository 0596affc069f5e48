#include "rules/condition.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "matrix/strict_json.hpp"
#include "matrix/object_reader.hpp"
#include "rules/fact_catalogue.hpp"
#include "util/strings.hpp"
#include "util/word_table.hpp"
#include "util/version.hpp"

namespace gpucheck {

using nlohmann::json;

namespace {

constexpr Word<Op> kOps[] = {
    {Op::eq, "=="},       {Op::ne, "!="},         {Op::lt, "<"},         {Op::le, "<="},
    {Op::gt, ">"},        {Op::ge, ">="},         {Op::in, "in"},        {Op::not_in, "not_in"},
    {Op::contains, "contains"}, {Op::not_contains, "not_contains"},   {Op::prefix, "prefix"},
    {Op::present, "present"},   {Op::absent, "absent"}, {Op::empty, "empty"}, {Op::not_empty, "not_empty"}};

bool is_one_of(Op op, std::initializer_list<Op> ops) { return std::find(ops.begin(), ops.end(), op) != ops.end(); }
bool is_order(Op op) { return is_one_of(op, {Op::lt, Op::le, Op::gt, Op::ge}); }

// Which operators each kind of fact allows.
bool op_allowed(FactKind k, Op op) {
  if (is_one_of(op, {Op::present, Op::absent})) return true;
  switch (k) {
    case FactKind::version:
    case FactKind::number: return is_one_of(op, {Op::eq, Op::ne, Op::in, Op::not_in}) || is_order(op);
    case FactKind::text: return is_one_of(op, {Op::eq, Op::ne, Op::in, Op::not_in, Op::prefix});
    case FactKind::boolean: return is_one_of(op, {Op::eq, Op::ne});
    case FactKind::list: return is_one_of(op, {Op::contains, Op::not_contains, Op::empty, Op::not_empty});
  }
  return false;
}

bool needs_value(Op op) { return !is_one_of(op, {Op::present, Op::absent, Op::empty, Op::not_empty}); }

// What a value is compared as: the fact's own kind; for a list, an item,
// which is text or, when it reads as one, a version ("8.6" in an arch list).
FactKind operand_kind(FactKind fact_kind) { return fact_kind == FactKind::list ? FactKind::version : fact_kind; }

// A value as a fact of kind `k` holds it, parsed once.
FactValue operand(FactKind k, const std::string& text) {
  if (k == FactKind::version) return FactValue::of_version(text, "");
  if (k == FactKind::number) {
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    if (end != text.c_str()) return FactValue::of_number(v, "");
  }
  return FactValue::of_text(text, "");
}

void type_operands(Condition& c, FactKind fact_kind) {
  c.operands.clear();
  for (const auto& v : c.values) c.operands.push_back(operand(operand_kind(fact_kind), v));
}

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
  constexpr std::string_view kKeys[] = {"fact", "op", "value", "values", "other"};
  for (auto& [key, _] : j.items())
    if (std::find(std::begin(kKeys), std::end(kKeys), key) == std::end(kKeys))
      bad("/" + key, "unknown key \"" + key + "\" in a comparison (allowed: fact, op, value, values, other)");
  if (!j.contains("fact") || !j["fact"].is_string()) return bad("/fact", "expected the name of a fact (a string)");
  c.fact = j["fact"].get<std::string>();
  const FactSpec* spec = find_fact_spec(c.fact);
  if (!spec) return bad("/fact", "unknown fact \"" + c.fact + "\" (docs/rules.md lists the facts)");
  if (!scope_includes(scope, spec->scope))
    return bad("/fact", "fact \"" + c.fact + "\" belongs to scope \"" + std::string(to_string(spec->scope)) +
                            "\", which a rule of scope \"" + std::string(to_string(scope)) + "\" does not see");
  if (!j.contains("op") || !j["op"].is_string()) return bad("/op", "expected an operator (a string)");
  const std::string op_text = j["op"].get<std::string>();
  const auto op = value_named(kOps, op_text);
  if (!op) return bad("/op", "unknown operator \"" + op_text + "\"");
  c.op = *op;
  if (!op_allowed(spec->kind, c.op))
    return bad("/op", "operator \"" + op_text + "\" does not apply to " + std::string(to_string(spec->kind)) + " fact \"" +
                          c.fact + "\"");
  const bool list_op = c.op == Op::in || c.op == Op::not_in;
  if (!needs_value(c.op)) {
    if (j.contains("value") || j.contains("values") || j.contains("other"))
      bad("", "operator \"" + op_text + "\" takes no value");
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
                             c.fact + "\" by \"" + op_text + "\"");
    return;
  }
  std::string why;
  if (list_op) {
    if (!j.contains("values") || !j["values"].is_array() || j["values"].empty())
      return bad("/values", "operator \"" + op_text + "\" needs \"values\": a non-empty array");
    for (std::size_t i = 0; i < j["values"].size(); ++i) {
      auto t = value_text(j["values"][i], value_kind, why);
      if (!t) bad("/values/" + std::to_string(i), why + ", found " + describe_json(j["values"][i]));
      else c.values.push_back(*t);
    }
    return type_operands(c, spec->kind);
  }
  if (!j.contains("value")) return bad("/value", "operator \"" + op_text + "\" needs a \"value\" or an \"other\" fact");
  auto t = value_text(j["value"], value_kind, why);
  if (!t) return bad("/value", why + ", found " + describe_json(j["value"]));
  c.values.push_back(*t);
  type_operands(c, spec->kind);
}

// Orders a fact and a value typed as its kind; nullopt when either is not
// one (a version that does not parse).
std::optional<int> order(const FactValue& a, const FactValue& b) {
  if (a.kind == FactKind::number) {
    if (b.kind != FactKind::number) return std::nullopt;
    return a.number < b.number ? -1 : a.number > b.number ? 1 : 0;
  }
  if (a.kind == FactKind::version) {
    if (!a.version || !b.version) return std::nullopt;
    const auto o = *a.version <=> *b.version;
    return o < 0 ? -1 : o > 0 ? 1 : 0;
  }
  return a.text == b.text ? 0 : 1;
}

// Equality as the kind means it: 12.2 == 12.2.0, 8.6 in ["8.6"].
bool same(const FactValue& a, const FactValue& b) {
  const auto o = order(a, b);
  return o && *o == 0;
}

// An item equal as text, or as a version without a suffix ("8.6" holds 8.6.0).
bool list_has(const FactValue& list, const FactValue& v) {
  for (std::size_t i = 0; i < list.items.size(); ++i) {
    if (list.items[i] == v.text) return true;
    const auto& x = list.item_versions[i];
    if (x && v.version && x->suffix().empty() && v.version->suffix().empty() && *x == *v.version) return true;
  }
  return false;
}

Tri from_bool(bool b) { return b ? Tri::yes : Tri::no; }

Tri compare(const Condition& c, const FactMap& facts) {
  auto it = facts.find(c.fact);
  if (c.op == Op::present) return from_bool(it != facts.end());
  if (c.op == Op::absent) return from_bool(it == facts.end());
  if (it == facts.end()) return Tri::unknown;
  const FactValue& f = it->second;
  if (c.op == Op::empty) return from_bool(f.items.empty());
  if (c.op == Op::not_empty) return from_bool(!f.items.empty());
  const std::vector<FactValue>* values = &c.operands;
  std::vector<FactValue> of_other;
  if (c.other) {
    auto o = facts.find(*c.other);
    if (o == facts.end()) return Tri::unknown;
    const FactKind k = operand_kind(f.kind);
    if (o->second.kind == FactKind::list)
      for (const auto& item : o->second.items) of_other.push_back(operand(k, item));
    else
      of_other.push_back(o->second.kind == k ? o->second : operand(k, o->second.text));
    values = &of_other;
  }
  if (c.op == Op::in || c.op == Op::not_in) {
    const bool in = std::any_of(values->begin(), values->end(), [&](const FactValue& v) { return same(f, v); });
    return from_bool(c.op == Op::in ? in : !in);
  }
  if (values->empty()) return Tri::unknown;
  const FactValue& v = values->front();
  switch (c.op) {
    case Op::contains: return from_bool(list_has(f, v));
    case Op::not_contains: return from_bool(!list_has(f, v));
    case Op::prefix: return from_bool(starts_with(f.text, v.text));
    case Op::eq: return from_bool(same(f, v));
    case Op::ne: return from_bool(!same(f, v));
    default: break;
  }
  const auto o = order(f, v);
  if (!o) return Tri::unknown;
  switch (c.op) {
    case Op::lt: return from_bool(*o < 0);
    case Op::le: return from_bool(*o <= 0);
    case Op::gt: return from_bool(*o > 0);
    case Op::ge: return from_bool(*o >= 0);
    default: return Tri::unknown;
  }
}

}  // namespace

std::string_view to_string(Op op) { return name_of(kOps, op); }

namespace {

Condition group(Condition::Kind kind, std::vector<Condition> children) {
  Condition c;
  c.kind = kind;
  c.children = std::move(children);
  return c;
}

}  // namespace

Condition all_of(std::vector<Condition> children) { return group(Condition::Kind::all, std::move(children)); }
Condition any_of(std::vector<Condition> children) { return group(Condition::Kind::any, std::move(children)); }

Condition compare_condition(std::string fact, Op op, std::vector<std::string> values) {
  Condition c;
  const FactSpec* spec = find_fact_spec(fact);
  c.fact = std::move(fact);
  c.op = op;
  c.values = std::move(values);
  type_operands(c, spec ? spec->kind : FactKind::text);
  return c;
}

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
