#include "matrix/validated_json.hpp"

#include <simdjson.h>

namespace gpucheck {
namespace {

using nlohmann::json;
using simdjson::dom::element;
using simdjson::dom::element_type;

// Numbers keep nlohmann's kinds (a non-negative integer is unsigned), so a
// document reads the same whichever parser read it.
json to_json(element e) {
  switch (e.type()) {
    case element_type::ARRAY: {
      json out = json::array();
      // Copied out of the result first: value_unsafe() of a temporary
      // result would leave the loop holding a reference into it.
      const simdjson::dom::array items = e.get_array().value_unsafe();
      for (element item : items) out.push_back(to_json(item));
      return out;
    }
    case element_type::OBJECT: {
      json out = json::object();
      const simdjson::dom::object fields = e.get_object().value_unsafe();
      for (auto field : fields) out.emplace(std::string(field.key), to_json(field.value));
      return out;
    }
    case element_type::INT64: {
      const std::int64_t v = e.get_int64().value_unsafe();
      return v >= 0 ? json(static_cast<std::uint64_t>(v)) : json(v);
    }
    case element_type::UINT64: return e.get_uint64().value_unsafe();
    case element_type::DOUBLE: return e.get_double().value_unsafe();
    case element_type::STRING: return std::string(e.get_string().value_unsafe());
    case element_type::BOOL: return e.get_bool().value_unsafe();
    case element_type::NULL_VALUE: return nullptr;
  }
  return nullptr;
}

}  // namespace

Result<json> parse_validated_json(std::string_view text, const std::string& name) {
  simdjson::dom::parser parser;
  element root;
  if (auto error = parser.parse(text.data(), text.size()).get(root))
    return Problem{Reason::malformed, name,
                   std::string("invalid JSON (it was valid when checked: damaged since?): ") + simdjson::error_message(error)};
  return to_json(root);
}

}  // namespace gpucheck
