#include "matrix/lookup.hpp"

#include <algorithm>

#include "util/python_name.hpp"
#include "util/strings.hpp"
#include "util/version.hpp"

namespace gpucheck {
namespace {

// Python distribution names compare case-insensitively with '_' as '-' (PEP 503).
bool same_major_minor(const Version& a, const Version& b) { return a.major() == b.major() && a.minor() == b.minor(); }

}  // namespace

const GpuModel* find_gpu_by_id(const Matrix& m, std::string_view id) {
  for (const auto& g : m.gpus)
    if (g.id == id) return &g;
  return nullptr;
}

const GpuModel* find_gpu_by_pci_id(const Matrix& m, std::string_view pci_id) {
  const auto wanted = to_lower(trim(pci_id));
  for (const auto& g : m.gpus)
    for (const auto& id : g.pci_ids)
      if (to_lower(id) == wanted) return &g;
  return nullptr;
}

namespace {

// Drivers before about 2021 print "GeForce RTX 3090", later ones "NVIDIA
// GeForce RTX 3090": the same board.
std::string without_vendor(const std::string& lower) { return lower.rfind("nvidia ", 0) == 0 ? lower.substr(7) : lower; }

}  // namespace

const GpuId* find_gpu_id(const Matrix& m, std::string_view pci_id) {
  const auto wanted = to_lower(trim(pci_id));
  for (const auto& g : m.gpu_ids)
    if (to_lower(g.pci_id) == wanted) return &g;
  return nullptr;
}

const GpuId* find_gpu_id_by_name(const Matrix& m, std::string_view product_name) {
  const auto name = without_vendor(to_lower(trim(product_name)));
  if (name.empty()) return nullptr;
  const GpuId* first = nullptr;
  for (const auto& g : m.gpu_ids) {
    const bool named = std::any_of(g.names.begin(), g.names.end(),
                                   [&](const std::string& n) { return without_vendor(to_lower(n)) == name; });
    if (!named) continue;
    if (!first) first = &g;
    else if (first->compute_capability != g.compute_capability) return nullptr;
  }
  return first;
}

const GpuModel* find_gpu_by_name(const Matrix& m, std::string_view product_name) {
  const auto name = to_lower(trim(product_name));
  if (name.empty()) return nullptr;
  for (const auto& g : m.gpus)
    if (without_vendor(to_lower(g.name)) == without_vendor(name)) return &g;
  const GpuModel* best = nullptr;
  std::size_t best_length = 0;
  for (const auto& g : m.gpus)
    for (const auto& p : g.name_patterns)
      if (p.size() > best_length && name.find(p) != std::string::npos) {
        best = &g;
        best_length = p.size();
      }
  return best;
}

std::optional<Version> family_compute_capability(const Matrix& m, std::string_view name) {
  std::string want = to_lower(trim(name));
  for (std::string_view vendor : {"nvidia ", "tesla ", "geforce ", "quadro "})
    if (want.rfind(vendor, 0) == 0) want = want.substr(vendor.size());
  if (want.size() < 2) return std::nullopt;
  const auto word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; };
  std::optional<Version> cc;
  for (const auto& g : m.gpus) {
    const auto n = to_lower(g.name);
    bool named = false;
    for (auto at = n.find(want); at != std::string::npos && !named; at = n.find(want, at + 1))
      named = (at == 0 || !word(n[at - 1])) && (at + want.size() == n.size() || !word(n[at + want.size()]));
    if (!named || !g.compute_capability) continue;
    if (cc && !(*cc == *g.compute_capability)) return std::nullopt;
    cc = g.compute_capability;
  }
  return cc;
}

const ArchPrecisions* find_arch_precisions(const Matrix& m, std::string_view compute_capability) {
  const auto wanted = Version::parse(trim(compute_capability));
  return wanted ? find_arch_precisions(m, *wanted) : nullptr;
}

const ArchPrecisions* find_arch_precisions(const Matrix& m, const Version& compute_capability) {
  for (const auto& a : m.arch_precisions)
    if (same_major_minor(a.compute_capability, compute_capability)) return &a;
  return nullptr;
}

const CudaRelease* find_cuda_release(const Matrix& m, std::string_view cuda_version) {
  const auto wanted = Version::parse(trim(cuda_version));
  return wanted ? find_cuda_release(m, *wanted) : nullptr;
}

const CudaRelease* find_cuda_release(const Matrix& m, const Version& wanted) {
  const CudaRelease* lowest = nullptr;
  for (const auto& r : m.cuda_releases) {
    if (!same_major_minor(r.version, wanted)) continue;
    // Exact only when the query names a patch: "12.1" means the family of 12.1.x.
    if (wanted.parts().size() >= 3 && r.version == wanted) return &r;
    if (!lowest || r.version < lowest->version) lowest = &r;
  }
  return lowest;
}

const CudaFamily* find_cuda_family(const Matrix& m, int major) {
  for (const auto& f : m.cuda_families)
    if (f.major == major) return &f;
  return nullptr;
}

const DriverBranch* find_driver_branch(const Matrix& m, int branch) {
  for (const auto& b : m.driver_branches)
    if (b.branch == branch) return &b;
  return nullptr;
}

std::string_view variant_of_version(std::string_view installed_version) {
  const auto plus = installed_version.find('+');
  return plus == std::string_view::npos ? std::string_view{} : installed_version.substr(plus + 1);
}

namespace {

// PEP 440's post-release segment: ".post1" of "0.4.0.post1+cu118"; "" for none.
// A post release is another build (vLLM 0.4.0.post1 added the sm_70 and
// sm_75 kernels 0.4.0 lacked), so an entry naming one matches only it.
std::string_view post_release(const Version& v) {
  std::string_view s = v.suffix();
  s = s.substr(0, s.find('+'));
  const auto at = s.find(".post");
  return at == std::string_view::npos ? std::string_view{} : s.substr(at);
}

// The entry's version leads the installed one, and a post release it names is the installed one's.
bool leads(const Version& entry, const Version& installed) {
  const auto& parts = entry.parts();
  if (parts.size() > installed.parts().size() || !std::equal(parts.begin(), parts.end(), installed.parts().begin())) return false;
  const auto post = post_release(entry);
  return post.empty() || post == post_release(installed);
}

// More version components, then a post release named, is more specific.
std::pair<std::size_t, bool> specificity(const Version& v) { return {v.parts().size(), !post_release(v).empty()}; }

}  // namespace

std::vector<const FrameworkVariant*> find_framework_variants(const Matrix& m, std::string_view framework,
                                                             std::string_view installed_version,
                                                             std::string_view variant) {
  std::vector<const FrameworkVariant*> out;
  const auto installed = Version::parse(trim(installed_version));
  if (!installed) return out;
  const auto name = normalize_dist_name(framework);
  for (const auto& f : m.frameworks) {
    if (normalize_dist_name(f.framework) != name || f.variant != variant) continue;
    if (leads(f.version, *installed)) out.push_back(&f);
  }
  std::stable_sort(out.begin(), out.end(), [](const FrameworkVariant* a, const FrameworkVariant* b) {
    return specificity(a->version) > specificity(b->version);
  });
  return out;
}

const FrameworkVariant* find_pypi_default(const Matrix& m, std::string_view framework, std::string_view installed_version,
                                          const std::optional<std::string>& cuda) {
  const auto installed = Version::parse(trim(installed_version));
  if (!installed) return nullptr;
  std::optional<Version> built;
  if (cuda) built = Version::parse(*cuda);
  const auto name = normalize_dist_name(framework);
  const FrameworkVariant* best = nullptr;
  for (const auto& f : m.frameworks) {
    if (!f.pypi_default || normalize_dist_name(f.framework) != name || !leads(f.version, *installed)) continue;
    if (built && f.cuda && !same_major_minor(*built, *f.cuda)) continue;
    if (!best || specificity(f.version) > specificity(best->version)) best = &f;
  }
  return best;
}

const RocmRelease* find_rocm_release(const Matrix& m, std::string_view installed_version) {
  const auto installed = Version::parse(trim(installed_version));
  if (!installed) return nullptr;
  const RocmRelease* best = nullptr;
  std::size_t best_parts = 0;
  for (const auto& r : m.rocm_releases) {
    const auto& parts = r.version.parts();
    if (parts.size() > installed->parts().size() || parts.size() <= best_parts) continue;
    if (std::equal(parts.begin(), parts.end(), installed->parts().begin())) {
      best = &r;
      best_parts = parts.size();
    }
  }
  return best;
}

std::vector<const NgcRelease*> find_ngc_releases(const Matrix& m, std::string_view framework) {
  std::vector<const NgcRelease*> out;
  const auto name = to_lower(framework);
  for (const auto& n : m.ngc)
    if (to_lower(n.framework) == name) out.push_back(&n);
  std::stable_sort(out.begin(), out.end(), [](const NgcRelease* a, const NgcRelease* b) {
    if (a->release != b->release) return a->release > b->release;
    return a->tag > b->tag;
  });
  return out;
}

const KnownModel* find_model(const Matrix& m, std::string_view name) {
  for (const auto& model : m.models)
    if (model.id == name) return &model;
  const auto key = alnum_key(name);
  if (key.empty()) return nullptr;
  for (const auto& model : m.models) {
    const auto slash = model.repo.find('/');
    if (key == alnum_key(model.repo) || key == alnum_key(model.name) || key == alnum_key(model.id) ||
        (slash != std::string::npos && key == alnum_key(model.repo.substr(slash + 1))))
      return &model;
  }
  return nullptr;
}

}  // namespace gpucheck
