// JSON in and out at the program's edges. Nothing nlohmann throws escapes a
// parse, and nothing a host fed us (a byte that is not UTF-8) makes a dump
// throw: the writer replaces it, the reader says where the input went wrong.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "util/result.hpp"
#include "util/utf8.hpp"

namespace gpucheck {

template <class Json>
std::string dump_json(const Json& j, int indent = -1) {
  return j.dump(indent, ' ', false, Json::error_handler_t::replace);
}

// "line 3, column 14: syntax error while parsing object key - …": nlohmann's
// message without its "[json.exception.parse_error.101]" prefix, with the
// position in the text where nlohmann gives none (a number that overflows).
std::string json_error_text(const nlohmann::json::exception& e, std::string_view text);

// One JSON document; a Problem (reason malformed, `where` left to the
// caller) for anything nlohmann refuses, including numbers out of range.
template <class Json = nlohmann::json>
Result<Json> parse_json(std::string_view text) {
  try {
    return Json::parse(text.begin(), text.end());
  } catch (const nlohmann::json::exception& e) {
    return Problem{Reason::malformed, "", "not valid JSON: " + json_error_text(e, text)};
  }
}

// Replaces, in place, every string (and object key) in j that is not valid
// UTF-8; calls on_replaced with the JSON path ("$.pci[0].name") of each.
// A document that is already valid (nearly always) is only read.
template <class Json, class OnReplaced>
void replace_invalid_utf8(Json& j, const OnReplaced& on_replaced);

namespace detail {

// Walks the containers themselves, not basic_json's iterators, which cost
// more than the check: every report passes through here.
template <class Json>
bool strings_valid(const Json& j) {
  if (const auto* s = j.template get_ptr<const typename Json::string_t*>()) return is_valid_utf8(*s);
  if (const auto* a = j.template get_ptr<const typename Json::array_t*>()) {
    for (const auto& v : *a)
      if (!strings_valid(v)) return false;
  } else if (const auto* o = j.template get_ptr<const typename Json::object_t*>()) {
    for (const auto& [key, value] : *o)
      if (!is_valid_utf8(key) || !strings_valid(value)) return false;
  }
  return true;
}

template <class Json, class OnReplaced>
void replace_strings(Json& j, const OnReplaced& on_replaced, const std::string& path) {
  if (j.is_string()) {
    const auto& s = j.template get_ref<const std::string&>();
    if (is_valid_utf8(s)) return;
    j = to_valid_utf8(s);
    on_replaced(path);
  } else if (j.is_array()) {
    for (std::size_t i = 0; i < j.size(); ++i) replace_strings(j[i], on_replaced, path + "[" + std::to_string(i) + "]");
  } else if (j.is_object()) {
    Json rebuilt = Json::object();
    for (auto it = j.begin(); it != j.end(); ++it) {
      std::string key = it.key();
      if (!is_valid_utf8(key)) {
        key = to_valid_utf8(key);
        on_replaced(path + "." + key);
      }
      replace_strings(it.value(), on_replaced, path + "." + key);
      rebuilt[key] = std::move(it.value());
    }
    j = std::move(rebuilt);
  }
}

}  // namespace detail

template <class Json, class OnReplaced>
void replace_invalid_utf8(Json& j, const OnReplaced& on_replaced) {
  if (!detail::strings_valid(j)) detail::replace_strings(j, on_replaced, "$");
}

}  // namespace gpucheck
