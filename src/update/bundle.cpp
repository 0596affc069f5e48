#include "update/bundle.hpp"

#include <nlohmann/json.hpp>


namespace gpucheck {

namespace {

// The header keys, written first so a person reading the bundle (or `head`)
// sees what it is.
constexpr const char* kHeaderKeys[] = {"version", "date", "description"};

}  // namespace

Result<std::string> bundle_from_documents(const std::vector<MatrixDocument>& docs, const std::string& path) {
  // Every document's problems, by their own names, before the merged one's.
  if (auto checked = check_knowledge(docs, MatrixRole::complete); !checked.problems.empty()) return first_problem(checked, path);
  // Read again keeping each object's keys in the order its authors wrote.
  using ordered = nlohmann::ordered_json;
  ordered out = ordered::object();
  out["schema"] = kMatrixSchema;
  ordered sections = ordered::object();
  for (const auto& doc : docs) {
    const auto root = ordered::parse(doc.text);
    for (const char* key : kHeaderKeys)
      if (root.contains(key)) out[key] = root[key];
    for (const auto& [key, value] : root.items()) {
      if (!value.is_array()) continue;  // schema and the header
      auto& into = sections[key];
      if (into.is_null()) into = ordered::array();
      into.insert(into.end(), value.begin(), value.end());
    }
  }
  for (auto& [key, value] : sections.items()) out[key] = std::move(value);
  std::string text = out.dump(1) + "\n";
  if (auto merged = read_bundle(text, "the bundle"); !merged) return merged.problem();
  return text;
}

Result<Knowledge> read_bundle(std::string_view text, const std::string& name, bool validated) {
  auto checked = check_knowledge({MatrixDocument{name, std::string(text), validated}}, MatrixRole::complete);
  if (!checked.knowledge) return first_problem(checked, name);
  return std::move(*checked.knowledge);
}

}  // namespace gpucheck
