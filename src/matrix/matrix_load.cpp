#include "matrix/matrix_load.hpp"

#include <algorithm>
#include <map>

#include "matrix/matrix_keys.hpp"
#include "matrix/matrix_sections.hpp"
#include "matrix/strict_json.hpp"
#include "util/strings.hpp"
#include "util/version.hpp"
#include "util/utf8.hpp"

namespace gpucheck {
namespace {

using nlohmann::json;
namespace mv = matrix_values;

constexpr const char* kDocumentKeys[] = {"schema",          "version",         "date",          "description",
                                         "gpus",            "gpu_ids",         "arch_precisions", "cuda_releases", "cuda_families",
                                         "frameworks",      "ngc",             "rocm_releases", "soname_prefixes",
                                         "sub_libraries",   "library_wheels",  "pcie_generations", "cuda_errors",
                                         "driver_branches", "xids",         "xid_recovery_actions", "models",
                                         "rules"};

constexpr std::string_view kEmbeddedPrefix = "embedded:";

class Loader {
 public:
  void document(const ParsedDocument& doc) {
    if (!doc.root) {
      problems_.push_back(doc.root.problem());
      incomplete_ = true;
      return;
    }
    const json& root = doc.root.value();
    if (!root.is_object()) {
      problem(doc.name, "expected a JSON object at the top level, found " + describe_json(root));
      incomplete_ = true;
      return;
    }
    ObjectReader top(root, doc.name, "", problems_);
    std::string schema;
    top.string("schema", schema, mv::non_empty);
    if (!schema.empty() && schema != kMatrixSchema)
      problem(top.where("schema"), std::string("expected \"") + kMatrixSchema + "\", found " + quoted_value(schema));
    header(root, doc.name, top);
    for (const char* key : kDocumentKeys)
      if (root.contains(key) && std::string_view(key) != "schema" && !is_header(key)) section(root, doc.name, key);
    // Every key above is allowed; the reader was asked only for "schema".
    reject_unknown_document_keys(root, doc.name);
  }

  MatrixCheck finish(std::size_t document_count, const std::string& first_name, MatrixRole role) {
    // A document that could not be read may be the one with the version.
    if (role == MatrixRole::complete && !header_document_ && !incomplete_)
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

  // Reports a second entry with the same identity.
  void unique(const std::string& what, const std::string& id, const std::string& at, const std::string& id_where) {
    const auto [it, inserted] = seen_.emplace(what + "\n" + id, at);
    if (!inserted) problem(id_where, "duplicate " + what + " \"" + id + "\": also at " + it->second);
  }

  // Keeps the entry and reports a second one with the same identity.
  template <class T>
  void keep(std::vector<T>& into, T entry, const std::string& at, const std::string& id_where) {
    const auto key = key_of(entry);
    if (!key.id.empty()) unique(key.what, key.id, at, id_where);
    into.push_back(std::move(entry));
  }

  void entry(const std::string& section, ObjectReader& r, const std::string& at) {
    if (section == "gpus") keep(matrix_.gpus, read_gpu(r, problems_), at, r.where("id"));
    else if (section == "gpu_ids") keep(matrix_.gpu_ids, read_gpu_id(r), at, r.where("pci_id"));
    else if (section == "arch_precisions") keep(matrix_.arch_precisions, read_arch_precisions(r), at, r.where("compute_capability"));
    else if (section == "cuda_releases") keep(matrix_.cuda_releases, read_cuda_release(r), at, r.where("version"));
    else if (section == "cuda_families") keep(matrix_.cuda_families, read_cuda_family(r), at, r.where("major"));
    else if (section == "frameworks") keep_framework(read_framework_variant(r), at, r);
    else if (section == "ngc") keep(matrix_.ngc, read_ngc_release(r, problems_), at, r.where("tag"));
    else if (section == "rocm_releases") keep(matrix_.rocm_releases, read_rocm_release(r, problems_), at, r.where("version"));
    else if (section == "driver_branches") keep(matrix_.driver_branches, read_driver_branch(r, problems_), at, r.where("branch"));
    else if (section == "soname_prefixes") keep_each(matrix_.soname_prefixes, read_soname_prefixes(r), at, r, "family");
    else if (section == "sub_libraries") keep(matrix_.sub_libraries, read_sub_libraries(r), at, r.where("shim"));
    else if (section == "library_wheels") keep_each(matrix_.library_wheels, read_library_wheels(r, problems_), at, r, "library");
    else if (section == "pcie_generations") keep(matrix_.pcie_generations, read_pcie_generation(r), at, r.where("generation"));
    else if (section == "cuda_errors") keep(matrix_.cuda_errors, read_cuda_error(r), at, r.where("code"));
    else if (section == "xids") keep(matrix_.xids, read_xid(r), at, r.where("code"));
    else if (section == "xid_recovery_actions") keep(matrix_.xid_recovery_actions, read_xid_recovery_action(r), at, r.where("text"));
    else if (section == "models") keep(matrix_.models, read_known_model(r, problems_), at, r.where("id"));
  }

  // keep(), and one PyPI default build per release: a bare "2.15.0" must
  // name one build.
  void keep_framework(FrameworkVariant v, const std::string& at, const ObjectReader& r) {
    if (v.pypi_default && !v.framework.empty() && !v.version.text().empty())
      unique("PyPI default build of", v.framework + " " + v.version.text(), at, r.where("pypi_default"));
    keep(matrix_.frameworks, std::move(v), at, r.where("version"));
  }

  // keep(), and a member of the entry's list that an earlier entry of the
  // section holds is reported too: one prefix, one family; one wheel, one library.
  template <class T>
  void keep_each(std::vector<T>& into, T entry, const std::string& at, const ObjectReader& r, const char* id_key) {
    const auto [what, list_key, names] = members_of(entry);
    for (std::size_t i = 0; i < names->size(); ++i) unique(what, (*names)[i], at, r.where_index(list_key, i));
    keep(into, std::move(entry), at, r.where(id_key));
  }
  struct Members {
    const char* what;
    const char* key;
    const std::vector<std::string>* names;
  };
  static Members members_of(const SonamePrefixes& p) { return {"soname prefix", "prefixes", &p.prefixes}; }
  static Members members_of(const LibraryWheels& w) { return {"wheel", "wheels", &w.wheels}; }

  Matrix matrix_;
  std::vector<Problem> problems_;
  std::optional<std::string> header_document_;
  bool incomplete_ = false;  // a document was not a JSON object
  std::map<std::string, std::string> seen_;  // what + id -> where first seen
};

}  // namespace

MatrixCheck check_matrix(const std::vector<MatrixDocument>& docs, MatrixRole role) {
  return check_matrix(parse_documents(docs), role);
}

MatrixCheck check_matrix(const std::vector<ParsedDocument>& docs, MatrixRole role) {
  if (docs.empty()) return MatrixCheck{std::nullopt, {Problem{Reason::absent, "matrix", "no matrix documents"}}};
  Loader loader;
  for (const auto& doc : docs) loader.document(doc);
  auto out = loader.finish(docs.size(), docs.front().name, role);
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
