#include "update/matrix_source.hpp"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "matrix/matrix_document.hpp"
#include "update/bundle.hpp"
#include "update/matrix_cache.hpp"
#include "util/version.hpp"

namespace gpucheck {
namespace {

struct Cached {
  std::string dir;
  CacheRecord record;
  Version version;
};

// The embedded matrix's version, read from its one small header document
// so that a newer cache costs no parse of the embedded tables.
std::optional<Version> embedded_version() {
  const auto doc = embedded_matrix_document("matrix/matrix.json");
  if (!doc) return std::nullopt;
  const auto j = nlohmann::json::parse(doc->text, nullptr, false);
  if (!j.is_object() || !j.contains("version") || !j["version"].is_string()) return std::nullopt;
  return Version::parse(j["version"].get<std::string>());
}

void add_note(std::string& notes, const std::string& note) { notes += (notes.empty() ? "" : "; ") + note; }

}  // namespace

Result<Knowledge> load_base_knowledge() {
  std::string notes;
  std::vector<Cached> cached;
  for (const auto& dir : matrix_cache_dirs()) {
    auto record = read_cache_record(dir);
    if (!record) {
      if (record.problem().reason != Reason::absent)
        add_note(notes, "the matrix cache in " + dir + " is not used: " + record.problem().where + ": " + record.problem().detail);
      continue;
    }
    auto v = Version::parse(record->version);
    if (!v) continue;
    cached.push_back({dir, std::move(record).value(), *v});
  }
  std::stable_sort(cached.begin(), cached.end(), [](const Cached& a, const Cached& b) { return a.version > b.version; });
  const auto embedded = embedded_version();
  for (const auto& c : cached) {
    if (embedded && !(c.version > *embedded)) break;  // this gpucheck's own matrix is as new
    auto bytes = read_cached_bundle(c.dir, c.record);
    auto k = bytes ? read_bundle(*bytes, bundle_path(c.dir, c.record), true) : Result<Knowledge>(bytes.problem());
    if (!k) {
      add_note(notes, "the cached matrix " + c.record.version + " is not used: " + k.problem().where + ": " + k.problem().detail);
      continue;
    }
    Matrix& m = k.value().matrix;
    m.origin = "cached in " + c.dir;
    m.provenance = MatrixProvenance{"cached", bundle_path(c.dir, c.record), c.record.url, c.record.fetched,
                                    c.record.key_id + " (" + c.record.key_name + ")", notes};
    return k;
  }
  auto k = load_embedded_knowledge();
  if (k) k.value().matrix.provenance.note = notes;
  return k;
}

}  // namespace gpucheck
