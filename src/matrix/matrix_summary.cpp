#include "matrix/matrix_summary.hpp"

#include <algorithm>
#include <map>

namespace gpucheck {
namespace {

// The greatest of `items` by the version `key` gives; the first on a tie.
template <class T, class Key>
const T* newest_by(const std::vector<T>& items, Key key) {
  const T* best = nullptr;
  for (const auto& item : items)
    if (!best || key(*best) < key(item)) best = &item;
  return best;
}

// The newest per group (framework name), groups in name order, each named
// by its version as written.
template <class T, class Group, class Key>
std::vector<std::string> newest_per(const std::vector<T>& items, Group group, Key key) {
  std::map<std::string, std::vector<T>> by;
  for (const auto& item : items) by[group(item)].push_back(item);
  std::vector<std::string> out;
  for (const auto& [name, members] : by)
    if (const T* n = newest_by(members, key)) out.push_back(name + " " + key(*n).text());
  return out;
}

}  // namespace

std::vector<TableNewest> newest_entries(const Matrix& m) {
  std::vector<TableNewest> out;
  if (const auto* c = newest_by(m.cuda_releases, [](const CudaRelease& each) -> const Version& { return each.version; }))
    out.push_back({"CUDA releases", {c->version.text() + (c->date ? " (" + *c->date + ")" : "")}});
  out.push_back({"framework builds", newest_per(
                                         m.frameworks, [](const FrameworkVariant& f) { return f.framework; },
                                         [](const FrameworkVariant& f) -> const Version& { return f.version; })});
  out.push_back({"NGC releases", newest_per(
                                     m.ngc, [](const NgcRelease& n) { return n.framework; },
                                     [](const NgcRelease& n) -> const Version& { return n.release; })});
  if (const auto* r = newest_by(m.rocm_releases, [](const RocmRelease& each) -> const Version& { return each.version; }))
    out.push_back({"ROCm releases", {r->version.text()}});
  if (!m.driver_branches.empty()) {
    const auto newest = std::max_element(m.driver_branches.begin(), m.driver_branches.end(),
                                         [](const DriverBranch& a, const DriverBranch& b) { return a.branch < b.branch; });
    out.push_back({"driver branches", {branch_name(newest->branch)}});
  }
  return out;
}

}  // namespace gpucheck
