#include "matrix/matrix_summary.hpp"

#include <map>
#include <optional>

#include "util/version.hpp"

namespace gpucheck {
namespace {

// The greatest of `items` by the version `key` gives (unversioned ones skipped).
template <class T, class Key>
const T* newest_by(const std::vector<T>& items, Key key) {
  const T* best = nullptr;
  std::optional<Version> best_v;
  for (const auto& item : items) {
    auto v = Version::parse(key(item));
    if (v && (!best_v || *best_v < *v)) {
      best = &item;
      best_v = v;
    }
  }
  return best;
}

// The newest per group (framework name), groups in name order.
template <class T, class Group, class Key, class Text>
std::vector<std::string> newest_per(const std::vector<T>& items, Group group, Key key, Text text) {
  std::map<std::string, std::vector<T>> by;
  for (const auto& item : items) by[group(item)].push_back(item);
  std::vector<std::string> out;
  for (const auto& [name, members] : by)
    if (const T* n = newest_by(members, key)) out.push_back(name + " " + text(*n));
  return out;
}

}  // namespace

std::vector<TableNewest> newest_entries(const Matrix& m) {
  std::vector<TableNewest> out;
  if (const auto* c = newest_by(m.cuda_releases, [](const CudaRelease& each) { return each.version; }))
    out.push_back({"CUDA releases", {c->version + (c->date ? " (" + *c->date + ")" : "")}});
  out.push_back({"framework builds", newest_per(
                                         m.frameworks, [](const FrameworkVariant& f) { return f.framework; },
                                         [](const FrameworkVariant& f) { return f.version; },
                                         [](const FrameworkVariant& f) { return f.version; })});
  out.push_back({"NGC releases", newest_per(
                                     m.ngc, [](const NgcRelease& n) { return n.framework; },
                                     [](const NgcRelease& n) { return n.release; }, [](const NgcRelease& n) { return n.release; })});
  if (const auto* r = newest_by(m.rocm_releases, [](const RocmRelease& each) { return each.version; }))
    out.push_back({"ROCm releases", {r->version}});
  return out;
}

}  // namespace gpucheck
