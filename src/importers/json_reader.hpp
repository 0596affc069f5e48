// Reading gpucheck's own JSON back: typed field access that remembers the
// JSON path, so the first wrong type is reported as "system.os.id: expected a
// string or null, found number" instead of an exception.
//
// Missing and null are the same: the schema adds keys without a version bump,
// so a file written by an older gpucheck of the same schema may lack a key
// that is now written; it reads as unknown (optional) or empty (array, map).
// A key whose struct field cannot be unknown (a PCI address, an Xid number)
// must be present.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "util/result.hpp"

namespace gpucheck {

class JsonReader {
 public:
  explicit JsonReader(std::string where) : where_(std::move(where)) {}

  // A node and the JSON path that leads to it ("nvidia_smi.gpus[2]").
  struct Node {
    const nlohmann::json* j;  // nullptr: missing
    std::string path;
    bool absent() const { return j == nullptr || j->is_null(); }
  };

  Node child(const Node& n, const char* key);
  std::vector<Node> items(const Node& array);  // elements of an array (none when absent)
  // Elements that must be objects (null and scalars are reported).
  std::vector<Node> objects(const Node& array);

  std::optional<std::string> opt_string(const Node& n, const char* key);
  std::optional<bool> opt_bool(const Node& n, const char* key);
  std::optional<std::int64_t> opt_int(const Node& n, const char* key);
  std::optional<std::uint64_t> opt_uint(const Node& n, const char* key);
  std::optional<double> opt_double(const Node& n, const char* key);
  std::string string(const Node& n, const char* key);  // required
  bool boolean(const Node& n, const char* key);         // required
  std::int64_t integer(const Node& n, const char* key); // required
  double number(const Node& n, const char* key);        // required
  std::vector<std::string> strings(const Node& n, const char* key);
  std::map<std::string, std::string> string_map(const Node& n, const char* key);
  std::map<std::string, bool> bool_map(const Node& n, const char* key);

  // A required word of a fixed vocabulary (an enum's spelling): `named` maps
  // it; anything else is reported with the words expected, and `fallback`
  // stands in (the problem fails the read).
  template <class E>
  E word(const Node& n, const char* key, std::optional<E> (*named)(std::string_view), const std::string& expected,
         E fallback) {
    const std::string text = string(n, key);
    if (auto e = named(text)) return *e;
    if (!problem_)
      problem_ = Problem{Reason::malformed, where_,
                         child(n, key).path + ": expected one of " + expected + ", found \"" + text + "\""};
    return fallback;
  }

  template <class T>
  std::optional<T> opt_narrow(const Node& n, const char* key) {
    auto v = opt_int(n, key);
    return v ? std::optional<T>(static_cast<T>(*v)) : std::nullopt;
  }

  // Records a problem at a path (the first one wins).
  void fail(const std::string& path, const std::string& expected, const nlohmann::json* found);
  const std::optional<Problem>& problem() const { return problem_; }

 private:
  std::string where_;
  std::optional<Problem> problem_;
};

}  // namespace gpucheck
