#include "matrix/matrix_load.hpp"

#include <algorithm>
#include <map>

#include "matrix/matrix_sections.hpp"
#include "matrix/strict_json.hpp"
#include "util/strings.hpp"
#include "util/version.hpp"

namespace gpucheck {
namespace {

using nlohmann::json;
namespace mv = matrix_values;

constexpr const char* kDocumentKeys[] = {"schema",          "version",       "date",          "description",
                                         "gpus",            "arch_precisions", "cuda_releases", "cuda_families",
                                         "frameworks",      "ngc",           "rocm_releases", "rules"};

constexpr std::string_view kEmbeddedPrefix = "embedded:";

// Duplicate ids are compared on a canonical key: "12.4" and "12.4.0" are the
// same CUDA release, "8.0" and "8.00" the same architecture.
std::string canonical_version(const std::string& text) {
  const auto v = Version::parse(text);
  if (!v) return text;
  auto parts = v->parts();
  while (parts.size() > 1 && parts.back() == 0) parts.pop_back();
  std::string out;
  for (auto p : parts) {
    if (!out.empty()) out += '.';
    out += std::to_string(p);
  }
  return out;
}

class Loader {
 public:
  void document(const MatrixDocument& doc) {
    auto parsed = parse_strict_json(doc.text, doc.name);
    if (!parsed) {
      problems_.push_back(parsed.problem());
      incomplete_ = true;
      return;
    }
    const json& root = parsed.value();
    if (!root.is_object()) {
      problem(doc.name, "expected a JSON object at the top level, found " + describe_json(root));
      incomplete_ = true;
      return;
    }
    ObjectReader top(root, doc.name, "", problems_);
    std::string schema;
    top.string("schema", schema, mv::non_empty);
    if (!schema.empty() && schema != kMatrixSchema)
      problem(top.where("schema"), std::string("expected \"") + kMatrixSchema + "\", found \"" + schema + "\"");
    header(root, doc.name, top);
    for (const char* key : kDocumentKeys)
      if (root.contains(key) && std::string_view(key) != "schema" && !is_header(key)) section(root, doc.name, key);
    // Every key above is allowed; the reader was asked only for "schema".
    reject_unknown_document_keys(root, doc.name);
  }

  MatrixCheck finish(std::size_t document_count, const std::string& first_name) {
    // A document that could not be read may be the one with the version.
    if (!header_document_ && !incomplete_)
      problem(first_name, "none of the " + std::to_string(document_count) +
                              " matrix documents carries \"version\" and \"date\"; exactly one must (matrix/matrix.json)");
    MatrixCheck out;
    out.problems = std::move(problems_);
    if (out.problems.empty()) out.matrix = std::move(matrix_);
    return out;
  }

 private:
  static bool is_header(std::string_view key) { return key == "version" || key == "date" || key == "description"; }

  void problem(std::string where, std::string detail) {
    problems_.push_back(Problem{Reason::malformed, std::move(where), std::move(detail)});
  }

  // "version" and "date" (and "description") live in exactly one document.
  void header(const json& root, const std::string& name, ObjectReader& top) {
    const bool has_any = root.contains("version") || root.contains("date") || root.contains("description");
    if (!has_any) return;
    if (header_document_) {
      const char* key = root.contains("version") ? "version" : root.contains("date") ? "date" : "description";
      problem(top.where(key), "the matrix's version and date are already set in " + *header_document_ +
                                  "; exactly one document carries \"version\", \"date\" and \"description\"");
      return;
    }
    header_document_ = name;
    top.string("version", matrix_.version, mv::plain_version);
    top.string("date", matrix_.date, mv::iso_date);
    std::optional<std::string> description;
    top.optional_string("description", description, mv::non_empty);
  }

  void reject_unknown_document_keys(const json& root, const std::string& name) {
    std::vector<std::string> allowed(std::begin(kDocumentKeys), std::end(kDocumentKeys));
    for (const auto& [key, value] : root.items()) {
      (void)value;
      if (std::find(allowed.begin(), allowed.end(), key) != allowed.end()) continue;
      std::string detail = "unknown key \"" + key + "\"";
      if (auto near = nearest_key(key, allowed)) detail += " (did you mean \"" + *near + "\"?)";
      problem(name + ": " + pointer_append("", key), detail + "; allowed keys: " + join(allowed, ", "));
    }
  }

  void section(const json& root, const std::string& name, const std::string& key) {
    const json& items = root.at(key);
    const std::string pointer = pointer_append("", key);
    if (!items.is_array()) {
      problem(name + ": " + pointer, "expected an array, found " + describe_json(items));
      return;
    }
    if (key == "rules") return;  // parsed by rules/rule_load.cpp
    for (std::size_t i = 0; i < items.size(); ++i) {
      const std::string item_pointer = pointer_append(pointer, std::to_string(i));
      const std::string at = name + ": " + item_pointer;
      if (!items[i].is_object()) {
        problem(at, "expected an object, found " + describe_json(items[i]));
        continue;
      }
      ObjectReader r(items[i], name, item_pointer, problems_);
      entry(key, r, at);
    }
  }

  // Keeps the entry and reports a second entry with the same identity.
  void unique(const std::string& what, const std::string& id, const std::string& at, const std::string& id_where) {
    const auto [it, inserted] = seen_.emplace(what + "\n" + id, at);
    if (!inserted) problem(id_where, "duplicate " + what + " \"" + id + "\": also at " + it->second);
  }

  void entry(const std::string& section, ObjectReader& r, const std::string& at) {
    if (section == "gpus") {
      auto g = read_gpu(r);
      if (!g.id.empty()) unique("gpu id", g.id, at, r.where("id"));
      matrix_.gpus.push_back(std::move(g));
    } else if (section == "arch_precisions") {
      auto a = read_arch_precisions(r);
      if (!a.compute_capability.empty())
        unique("compute capability", canonical_version(a.compute_capability), at, r.where("compute_capability"));
      matrix_.arch_precisions.push_back(std::move(a));
    } else if (section == "cuda_releases") {
      auto c = read_cuda_release(r);
      if (!c.version.empty()) unique("CUDA release", canonical_version(c.version), at, r.where("version"));
      matrix_.cuda_releases.push_back(std::move(c));
    } else if (section == "cuda_families") {
      auto f = read_cuda_family(r);
      if (f.major > 0) unique("CUDA family", std::to_string(f.major), at, r.where("major"));
      matrix_.cuda_families.push_back(std::move(f));
    } else if (section == "frameworks") {
      auto v = read_framework_variant(r);
      if (!v.framework.empty() && !v.version.empty())
        unique("framework build", v.framework + " " + v.version + (v.variant.empty() ? "" : " " + v.variant), at,
               r.where("version"));
      matrix_.frameworks.push_back(std::move(v));
    } else if (section == "ngc") {
      auto n = read_ngc_release(r, problems_);
      if (!n.framework.empty() && !n.tag.empty()) unique("NGC container", n.framework + ":" + n.tag, at, r.where("tag"));
      matrix_.ngc.push_back(std::move(n));
    } else if (section == "rocm_releases") {
      auto v = read_rocm_release(r, problems_);
      if (!v.version.empty()) unique("ROCm release", v.version, at, r.where("version"));
      matrix_.rocm_releases.push_back(std::move(v));
    }
  }

  Matrix matrix_;
  std::vector<Problem> problems_;
  std::optional<std::string> header_document_;
  bool incomplete_ = false;  // a document was not a JSON object
  std::map<std::string, std::string> seen_;  // what + id -> where first seen
};

}  // namespace

MatrixCheck check_matrix(const std::vector<MatrixDocument>& docs) {
  if (docs.empty()) return MatrixCheck{std::nullopt, {Problem{Reason::absent, "matrix", "no matrix documents"}}};
  Loader loader;
  for (const auto& doc : docs) loader.document(doc);
  auto out = loader.finish(docs.size(), docs.front().name);
  if (out.matrix) {
    bool embedded = true;
    for (const auto& doc : docs) embedded = embedded && doc.name.rfind(kEmbeddedPrefix, 0) == 0;
    out.matrix->origin = embedded ? "embedded" : docs.front().name;
  }
  return out;
}

Result<Matrix> parse_matrix(const std::vector<MatrixDocument>& docs) {
  auto check = check_matrix(docs);
  if (check.matrix) return std::move(*check.matrix);
  Problem first = check.problems.front();
  if (const auto more = check.problems.size() - 1; more > 0)
    first.detail += " (and " + std::to_string(more) + " more problem" + (more == 1 ? "" : "s") + " in this matrix)";
  return first;
}

Result<Matrix> load_embedded_matrix() { return parse_matrix(embedded_matrix_documents()); }

Result<Matrix> load_matrix(const std::string& path) {
  auto docs = read_matrix_documents(path);
  if (!docs) return docs.problem();
  auto matrix = parse_matrix(docs.value());
  if (!matrix) return matrix.problem();
  matrix.value().origin = path;
  return matrix;
}

}  // namespace gpucheck
