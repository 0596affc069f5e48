#include "importers/json_reader.hpp"

namespace gpucheck {

namespace {

std::string join_path(const std::string& base, const char* key) {
  return base.empty() ? std::string(key) : base + "." + key;
}

const char* type_name(const nlohmann::json* j) {
  if (!j) return "nothing (the key is missing)";
  return j->type_name();
}

}  // namespace

void JsonReader::fail(const std::string& path, const std::string& expected, const nlohmann::json* found) {
  if (problem_) return;
  problem_ = Problem{Reason::malformed, where_,
                     (path.empty() ? std::string("top level") : path) + ": expected " + expected + ", found " +
                         type_name(found)};
}

JsonReader::Node JsonReader::child(const Node& n, const char* key) {
  Node out{nullptr, join_path(n.path, key)};
  if (n.absent()) return out;
  if (!n.j->is_object()) {
    fail(n.path, "an object", n.j);
    return out;
  }
  if (auto it = n.j->find(key); it != n.j->end()) out.j = &*it;
  return out;
}

std::vector<JsonReader::Node> JsonReader::items(const Node& array) {
  std::vector<Node> out;
  if (array.absent()) return out;
  if (!array.j->is_array()) {
    fail(array.path, "an array", array.j);
    return out;
  }
  out.reserve(array.j->size());
  for (std::size_t i = 0; i < array.j->size(); ++i)
    out.push_back(Node{&(*array.j)[i], array.path + "[" + std::to_string(i) + "]"});
  return out;
}

std::vector<JsonReader::Node> JsonReader::objects(const Node& array) {
  auto out = items(array);
  for (auto& e : out)
    if (!e.j->is_object()) {
      fail(e.path, "an object", e.j);
      return {};
    }
  return out;
}

std::optional<std::string> JsonReader::opt_string(const Node& n, const char* key) {
  auto c = child(n, key);
  if (c.absent()) return std::nullopt;
  if (!c.j->is_string()) {
    fail(c.path, "a string or null", c.j);
    return std::nullopt;
  }
  return c.j->get<std::string>();
}

std::optional<bool> JsonReader::opt_bool(const Node& n, const char* key) {
  auto c = child(n, key);
  if (c.absent()) return std::nullopt;
  if (!c.j->is_boolean()) {
    fail(c.path, "true, false or null", c.j);
    return std::nullopt;
  }
  return c.j->get<bool>();
}

std::optional<std::int64_t> JsonReader::opt_int(const Node& n, const char* key) {
  auto c = child(n, key);
  if (c.absent()) return std::nullopt;
  if (!c.j->is_number_integer()) {
    fail(c.path, "an integer or null", c.j);
    return std::nullopt;
  }
  return c.j->get<std::int64_t>();
}

std::optional<std::uint64_t> JsonReader::opt_uint(const Node& n, const char* key) {
  auto c = child(n, key);
  if (c.absent()) return std::nullopt;
  if (!c.j->is_number_unsigned()) {
    fail(c.path, "a non-negative integer or null", c.j);
    return std::nullopt;
  }
  return c.j->get<std::uint64_t>();
}

std::optional<double> JsonReader::opt_double(const Node& n, const char* key) {
  auto c = child(n, key);
  if (c.absent()) return std::nullopt;
  if (!c.j->is_number()) {
    fail(c.path, "a number or null", c.j);
    return std::nullopt;
  }
  return c.j->get<double>();
}

std::string JsonReader::string(const Node& n, const char* key) {
  auto c = child(n, key);
  if (c.j && c.j->is_string()) return c.j->get<std::string>();
  if (!n.absent()) fail(c.path, "a string", c.j);
  return {};
}

bool JsonReader::boolean(const Node& n, const char* key) {
  auto c = child(n, key);
  if (c.j && c.j->is_boolean()) return c.j->get<bool>();
  if (!n.absent()) fail(c.path, "true or false", c.j);
  return false;
}

std::int64_t JsonReader::integer(const Node& n, const char* key) {
  auto c = child(n, key);
  if (c.j && c.j->is_number_integer()) return c.j->get<std::int64_t>();
  if (!n.absent()) fail(c.path, "an integer", c.j);
  return 0;
}

double JsonReader::number(const Node& n, const char* key) {
  auto c = child(n, key);
  if (c.j && c.j->is_number()) return c.j->get<double>();
  if (!n.absent()) fail(c.path, "a number", c.j);
  return 0;
}

std::vector<std::string> JsonReader::strings(const Node& n, const char* key) {
  std::vector<std::string> out;
  for (auto& e : items(child(n, key))) {
    if (!e.j->is_string()) {
      fail(e.path, "a string", e.j);
      return out;
    }
    out.push_back(e.j->get<std::string>());
  }
  return out;
}

std::map<std::string, std::string> JsonReader::string_map(const Node& n, const char* key) {
  std::map<std::string, std::string> out;
  auto c = child(n, key);
  if (c.absent()) return out;
  if (!c.j->is_object()) {
    fail(c.path, "an object", c.j);
    return out;
  }
  for (auto& [k, v] : c.j->items()) {
    if (!v.is_string()) {
      fail(c.path + "." + k, "a string", &v);
      return out;
    }
    out[k] = v.get<std::string>();
  }
  return out;
}

std::map<std::string, bool> JsonReader::bool_map(const Node& n, const char* key) {
  std::map<std::string, bool> out;
  auto c = child(n, key);
  if (c.absent()) return out;
  if (!c.j->is_object()) {
    fail(c.path, "an object", c.j);
    return out;
  }
  for (auto& [k, v] : c.j->items()) {
    if (!v.is_boolean()) {
      fail(c.path + "." + k, "true or false", &v);
      return out;
    }
    out[k] = v.get<bool>();
  }
  return out;
}

}  // namespace gpucheck
