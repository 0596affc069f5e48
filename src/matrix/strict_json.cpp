#include "matrix/strict_json.hpp"

#include <optional>
#include <vector>

#include "matrix/validated_json.hpp"

namespace gpucheck {
namespace {

using nlohmann::json;

// Builds the DOM itself so it can see every key as it arrives.
class StrictBuilder : public nlohmann::json_sax<json> {
 public:
  explicit StrictBuilder(const std::string& name) : name_(name) {}

  bool null() override { return add(json(nullptr)); }
  bool boolean(bool v) override { return add(json(v)); }
  bool number_integer(number_integer_t v) override { return add(json(v)); }
  bool number_unsigned(number_unsigned_t v) override { return add(json(v)); }
  bool number_float(number_float_t v, const string_t&) override { return add(json(v)); }
  bool string(string_t& v) override { return add(json(std::move(v))); }
  bool binary(binary_t& v) override { return add(json::binary(std::move(v))); }

  bool start_object(std::size_t) override { return open(json::object()); }
  bool start_array(std::size_t) override { return open(json::array()); }
  bool end_object() override { return close(); }
  bool end_array() override { return close(); }

  bool key(string_t& k) override {
    Frame& f = stack_.back();
    if (f.node->contains(k)) {
      problem_ = Problem{Reason::malformed, name_ + ": " + pointer_append(pointer(), k),
                         "duplicate key \"" + k + "\" in one object (JSON parsers keep only the last; remove one)"};
      return false;
    }
    f.key = k;
    return true;
  }

  bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception& ex) override {
    problem_ = syntax_problem(position, ex.what());
    return false;
  }

  json take_root() { return std::move(root_); }
  const std::optional<Problem>& problem() const { return problem_; }

 private:
  // A matrix is a few levels deep; the limit keeps hostile input from
  // exhausting memory or the stack.
  static constexpr std::size_t kMaxDepth = 64;

  struct Frame {
    json* node;
    std::string token;  // this container's key or index in its parent
    std::string key;    // the key the next value of an object goes under
  };

  // The JSON pointer of the innermost open container, built only for errors.
  std::string pointer() const {
    std::string out;
    for (std::size_t i = 1; i < stack_.size(); ++i) out = pointer_append(out, stack_[i].token);
    return out;
  }

  // Where the next value goes, and its key or index there.
  std::pair<json*, std::string> slot() {
    if (stack_.empty()) return {&root_, ""};
    Frame& f = stack_.back();
    if (f.node->is_array()) {
      const auto index = f.node->size();
      f.node->push_back(nullptr);
      return {&f.node->back(), std::to_string(index)};
    }
    return {&(*f.node)[f.key], f.key};
  }

  bool add(json v) {
    *slot().first = std::move(v);
    return true;
  }

  bool open(json container) {
    if (stack_.size() >= kMaxDepth) {
      problem_ = Problem{Reason::malformed, name_ + ": " + pointer(),
                         "invalid JSON: nested deeper than " + std::to_string(kMaxDepth) + " levels"};
      return false;
    }
    auto [node, token] = slot();
    *node = std::move(container);
    stack_.push_back(Frame{node, std::move(token), {}});
    return true;
  }

  bool close() {
    stack_.pop_back();
    return true;
  }

  // nlohmann's message reads "[json.exception.parse_error.101] parse error at
  // line 3, column 5: syntax error while parsing ..."; keep its line and
  // column as the place and the rest as the reason.
  Problem syntax_problem(std::size_t position, std::string_view what) const {
    std::string where = name_ + ": byte " + std::to_string(position);
    std::string reason(what);
    if (const auto at = what.find(" at line "); at != std::string_view::npos) {
      if (const auto colon = what.find(": ", at); colon != std::string_view::npos) {
        where = name_ + ": " + std::string(what.substr(at + 4, colon - at - 4));
        reason = std::string(what.substr(colon + 2));
      }
    } else if (const auto colon = what.find("] "); colon != std::string_view::npos) {
      reason = std::string(what.substr(colon + 2));
    }
    return Problem{Reason::malformed, where, "invalid JSON: " + reason};
  }

  const std::string& name_;
  json root_;
  std::vector<Frame> stack_;
  std::optional<Problem> problem_;
};

}  // namespace

std::string pointer_append(const std::string& pointer, std::string_view token) {
  std::string out = pointer + "/";
  for (char c : token) {
    if (c == '~') out += "~0";
    else if (c == '/') out += "~1";
    else out += c;
  }
  return out;
}

Result<nlohmann::json> parse_strict_json(std::string_view text, const std::string& name) {
  StrictBuilder builder(name);
  const bool ok = json::sax_parse(text, &builder);
  if (builder.problem()) return *builder.problem();
  if (!ok) return Problem{Reason::malformed, name, "invalid JSON"};
  return builder.take_root();
}

std::vector<ParsedDocument> parse_documents(const std::vector<MatrixDocument>& docs) {
  std::vector<ParsedDocument> out;
  out.reserve(docs.size());
  for (const auto& d : docs) {
    if (!d.validated) {
      out.push_back({d.name, parse_strict_json(d.text, d.name)});
      continue;
    }
    out.push_back({d.name, parse_validated_json(d.text, d.name)});
  }
  return out;
}

}  // namespace gpucheck
