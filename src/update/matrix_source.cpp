#include "update/matrix_source.hpp"

#include <algorithm>

#include "builtin/builtin_knowledge.hpp"
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

// The built-in matrix's version, read without its tables, so that a newer
// cache costs no load of them.
std::optional<Version> embedded_version() {
  const auto h = embedded_matrix_header();
  return h ? Version::parse(h->version) : std::nullopt;
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
