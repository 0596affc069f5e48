#include "matrix/object_reader.hpp"

#include <algorithm>
#include <cmath>

#include "matrix/strict_json.hpp"
#include "util/strings.hpp"
#include "util/utf8.hpp"

namespace gpucheck {

using nlohmann::json;

ObjectReader::ObjectReader(const json& object, std::string document, std::string pointer, std::vector<Problem>& problems)
    : object_(object), document_(std::move(document)), pointer_(std::move(pointer)), problems_(problems) {}

bool ObjectReader::has(const char* key, const char* inner) const {
  const auto it = object_.find(key);
  if (it == object_.end()) return false;
  return !inner || (it->is_object() && it->contains(inner));
}

std::string ObjectReader::where(const std::string& key) const { return document_ + ": " + pointer_append(pointer_, key); }

std::string ObjectReader::where_index(const std::string& key, std::size_t index) const {
  return document_ + ": " + pointer_append(pointer_append(pointer_, key), std::to_string(index));
}

std::string ObjectReader::spell(Place at) const {
  std::string pointer = pointer_append(pointer_, at.key);
  if (at.index) pointer = pointer_append(pointer, std::to_string(*at.index));
  if (!at.name.empty()) pointer = pointer_append(pointer, at.name);
  return document_ + ": " + pointer;
}

void ObjectReader::problem(std::string where, std::string detail) {
  problems_.push_back(Problem{Reason::malformed, std::move(where), std::move(detail)});
}

const json* ObjectReader::member(const char* key, bool required, const char* expected) {
  allowed_.emplace_back(key);
  const auto it = object_.find(key);
  if (it == object_.end()) {
    if (required) problem(where(key), std::string("required field \"") + key + "\" is missing (expected " + expected + ")");
    return nullptr;
  }
  return &*it;
}

const json* ObjectReader::object(const char* key) {
  const auto* v = member(key, true, "an object");
  if (v && !v->is_object()) {
    problem(where(key), "expected an object, found " + describe_json(*v));
    return nullptr;
  }
  return v;
}

bool ObjectReader::check_string(const json& v, Place at, matrix_values::Check check, std::string& out) {
  if (!v.is_string()) {
    problem(spell(at), "expected a string, found " + describe_json(v));
    return false;
  }
  const auto& s = v.get_ref<const std::string&>();
  if (auto expected = check(s)) {
    problem(spell(at), "expected " + *expected + ", found " + quoted_value(s));
    return false;
  }
  out = s;
  return true;
}

void ObjectReader::string(const char* key, std::string& out, matrix_values::Check check) {
  if (const auto* v = member(key, true, "a string")) check_string(*v, {key, {}}, check, out);
}

void ObjectReader::optional_string(const char* key, std::optional<std::string>& out, matrix_values::Check check) {
  const auto* v = member(key, false, "a string");
  if (!v) return;
  std::string s;
  if (check_string(*v, {key, {}}, check, s)) out = std::move(s);
}

void ObjectReader::defaulted_string(const char* key, std::string& out, matrix_values::Check check) {
  if (const auto* v = member(key, false, "a string")) check_string(*v, {key, {}}, check, out);
}

void ObjectReader::string_list(const char* key, std::vector<std::string>& out, matrix_values::Check check, bool required) {
  const auto* v = member(key, required, "an array of strings");
  if (!v) return;
  if (!v->is_array()) {
    problem(where(key), "expected an array of strings, found " + describe_json(*v));
    return;
  }
  if (required && v->empty()) {
    problem(where(key), "expected a non-empty array, found []");
    return;
  }
  for (std::size_t i = 0; i < v->size(); ++i) {
    std::string s;
    if (!check_string((*v)[i], {key, i}, check, s)) continue;
    if (std::find(out.begin(), out.end(), s) != out.end()) {
      problem(where_index(key, i), "\"" + s + "\" appears twice in the list");
      continue;
    }
    out.push_back(std::move(s));
  }
}

// A check that accepts text Version cannot parse would be a bug in the
// check; it is reported rather than stored as an empty version.
std::optional<Version> ObjectReader::parsed(const std::string& text, Place at) {
  auto v = Version::parse(text);
  if (!v) problem(spell(at), "expected a version, found " + quoted_value(text));
  return v;
}

void ObjectReader::version(const char* key, Version& out, matrix_values::Check check) {
  std::string s;
  string(key, s, check);
  if (s.empty()) return;  // missing or rejected, already reported
  if (auto v = parsed(s, {key, {}})) out = std::move(*v);
}

void ObjectReader::optional_version(const char* key, std::optional<Version>& out, matrix_values::Check check) {
  std::optional<std::string> s;
  optional_string(key, s, check);
  if (s) out = parsed(*s, {key, {}});
}

void ObjectReader::version_list(const char* key, std::vector<Version>& out, matrix_values::Check check, bool required) {
  std::vector<std::string> texts;
  string_list(key, texts, check, required);
  for (const auto& t : texts)
    if (auto v = parsed(t, {key, {}})) out.push_back(std::move(*v));
}

void ObjectReader::sources(std::vector<std::string>& out) {
  const auto* v = member("sources", true, "a non-empty array of https:// URLs");
  if (!v) return;
  if (!v->is_array() || v->empty()) {
    problem(where("sources"), "expected a non-empty array of https:// URLs, found " + describe_json(*v));
    return;
  }
  for (std::size_t i = 0; i < v->size(); ++i) {
    std::string s;
    if (check_string((*v)[i], {"sources", i}, matrix_values::https_url, s)) out.push_back(std::move(s));
  }
}

void ObjectReader::integer(const char* key, int& out, int min, int max) {
  const auto* v = member(key, true, "an integer");
  if (!v) return;
  if (!v->is_number_integer() || v->get<long long>() < min || v->get<long long>() > max) {
    problem(where(key), "expected an integer from " + std::to_string(min) + " to " + std::to_string(max) + ", found " +
                            describe_json(*v));
    return;
  }
  out = v->get<int>();
}

void ObjectReader::number(const char* key, double& out) {
  std::optional<double> v;
  positive_number(key, true, v);
  if (v) out = *v;
}

void ObjectReader::optional_number(const char* key, std::optional<double>& out) { positive_number(key, false, out); }

void ObjectReader::positive_number(const char* key, bool required, std::optional<double>& out) {
  const auto* v = member(key, required, "a number");
  if (!v) return;
  if (!v->is_number() || !(v->get<double>() > 0) || !std::isfinite(v->get<double>())) {
    problem(where(key), "expected a positive number, found " + describe_json(*v));
    return;
  }
  out = v->get<double>();
}

void ObjectReader::boolean(const char* key, bool& out) {
  const auto* v = member(key, false, "true or false");
  if (!v) return;
  if (!v->is_boolean()) {
    problem(where(key), "expected true or false, found " + describe_json(*v));
    return;
  }
  out = v->get<bool>();
}

void ObjectReader::number_map(const char* key, std::map<std::string, double>& out, matrix_values::Check check) {
  const auto* v = member(key, false, "an object");
  if (!v) return;
  if (!v->is_object()) {
    problem(where(key), "expected an object of precision -> number, found " + describe_json(*v));
    return;
  }
  for (const auto& [name, value] : v->items()) {
    const Place at{key, {}, name};
    if (auto expected = check(name)) {
      problem(spell(at), "unknown key \"" + name + "\" (expected " + *expected + ")");
      continue;
    }
    if (!value.is_number() || !(value.get<double>() > 0) || !std::isfinite(value.get<double>())) {
      problem(spell(at), "expected a positive number, found " + describe_json(value));
      continue;
    }
    out[name] = value.get<double>();
  }
}

void ObjectReader::string_map(const char* key, std::map<std::string, std::string>& out, matrix_values::Check key_check,
                              matrix_values::Check check) {
  const auto* v = member(key, false, "an object");
  if (!v) return;
  if (!v->is_object()) {
    problem(where(key), "expected an object of name -> string, found " + describe_json(*v));
    return;
  }
  for (const auto& [name, value] : v->items()) {
    const Place at{key, {}, name};
    if (auto expected = key_check(name)) {
      problem(spell(at), "unknown key \"" + name + "\" (expected " + *expected + ")");
      continue;
    }
    std::string s;
    if (check_string(value, at, check, s)) out[name] = std::move(s);
  }
}

void ObjectReader::require_unless(const char* key, bool present, const char* instead, bool instead_present) {
  if (!present && !instead_present)
    problem(where(key), std::string("required field \"") + key + "\" is missing (or give \"" + instead + "\": why there is none)");
}

void ObjectReader::reject_unknown_keys() {
  for (const auto& [key, value] : object_.items()) {
    (void)value;
    if (std::find(allowed_.begin(), allowed_.end(), key) != allowed_.end()) continue;
    std::string detail = "unknown key \"" + key + "\"";
    if (auto near = nearest_key(key, allowed_)) detail += " (did you mean \"" + *near + "\"?)";
    detail += "; allowed keys: " + join(allowed_, ", ");
    problem(where(key), std::move(detail));
  }
}

std::string describe_json(const json& v) {
  switch (v.type()) {
    case json::value_t::null: return "null";
    case json::value_t::boolean: return std::string("a boolean ") + (v.get<bool>() ? "true" : "false");
    case json::value_t::string: {
      return "a string \"" + clip_text(v.get_ref<const std::string&>(), 60) + "\"";
    }
    case json::value_t::number_integer:
    case json::value_t::number_unsigned:
    case json::value_t::number_float: return "a number " + v.dump();
    case json::value_t::object: return v.empty() ? "{}" : "an object";
    case json::value_t::array: return v.empty() ? "[]" : "an array";
    default: return "a binary value";
  }
}

std::optional<std::string> nearest_key(const std::string& key, const std::vector<std::string>& allowed) {
  // Levenshtein distance over two rows; keys are short.
  auto distance = [](const std::string& a, const std::string& b) {
    std::vector<std::size_t> prev(b.size() + 1), cur(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) prev[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
      cur[0] = i;
      for (std::size_t j = 1; j <= b.size(); ++j)
        cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
      std::swap(prev, cur);
    }
    return prev[b.size()];
  };
  std::optional<std::string> best;
  std::size_t best_distance = 3;
  for (const auto& k : allowed) {
    const auto d = to_lower(k) == to_lower(key) ? 0 : distance(key, k);
    if (d < best_distance) {
      best_distance = d;
      best = k;
    }
  }
  return best;
}

}  // namespace gpucheck
