#include "rules/recommend.hpp"

#include <algorithm>

#include "matrix/lookup.hpp"
#include "rules/fact_view.hpp"
#include "util/strings.hpp"
#include "util/version.hpp"

namespace gpucheck {

namespace {

struct GpuSet {
  int count = 0;
  bool all_data_center = true;   // false as soon as one GPU is not, or is unknown
  std::optional<Version> lowest_cc;
  std::string names;
};

GpuSet gpu_set(const std::vector<Subject>& subjects) {
  GpuSet g;
  std::vector<std::string> names;
  for (auto& s : subjects) {
    if (s.scope != Scope::gpu) continue;
    auto v = s.facts.find("gpu.vendor");
    if (v == s.facts.end() || v->second.text != "nvidia") continue;
    ++g.count;
    auto dc = s.facts.find("gpu.data_center");
    g.all_data_center = g.all_data_center && dc != s.facts.end() && dc->second.boolean;
    if (auto cc = s.facts.find("gpu.compute_capability"); cc != s.facts.end())
      if (const auto& c = cc->second.version; c && (!g.lowest_cc || *c < *g.lowest_cc)) g.lowest_cc = c;
    auto n = s.facts.find("gpu.name");
    const std::string name = n == s.facts.end() ? "unknown NVIDIA GPU" : n->second.text;
    if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
  }
  for (auto& n : names) g.names += (g.names.empty() ? "" : ", ") + n;
  return g;
}

// NGC's floor is what the release notes state, often minor-version
// compatibility's; cuda.json's is the toolkit's own driver. Both are said
// where they differ, so the advice and `check` never disagree.
std::string driver_need(const NgcRelease& r, const Matrix& m) {
  std::string d = "needs driver " + r.min_driver.text();
  const CudaRelease* rel = r.cuda ? find_cuda_release(m, *r.cuda) : nullptr;
  if (!rel || !rel->min_driver_linux) return d;
  if (r.min_driver < *rel->min_driver_linux)
    d += " (" + rel->min_driver_linux->text() + " for all of CUDA " + rel->version.text() + ")";
  return d;
}

NgcChoice choice(const NgcRelease& r, const Matrix& m) {
  // NVIDIA's notes of some JAX releases were not read: say so, not "CUDA ?".
  std::string d = (r.cuda ? "CUDA " + r.cuda->text() : std::string("CUDA release not in the matrix")) + ", " + driver_need(r, m);
  if (r.framework_version) d += ", " + r.framework + " " + r.framework_version->text();
  return NgcChoice{r.tag, r.release.text(), d, r.sources};
}

bool on_forward_branch(const NgcRelease& r, const Version& driver) {
  for (auto& b : r.forward_compat_branches)
    if (b.major() == driver.major() && b <= driver) return true;
  return false;
}

}  // namespace

Recommendations recommend_ngc(const Facts& facts, const Matrix& matrix) {
  Recommendations out;
  const auto subjects = build_subjects(facts, matrix);
  const auto& host = subjects.front().facts;
  const GpuSet gpus = gpu_set(subjects);
  out.gpus = std::to_string(gpus.count) + " × " + (gpus.names.empty() ? "NVIDIA GPU" : gpus.names) +
             (gpus.count ? (gpus.all_data_center ? " (data center)" : " (not all data center)") : "");
  auto d = host.find("driver.version");
  if (d == host.end()) {
    out.why_none = "the NVIDIA driver's version is unknown, so no container can be judged";
    return out;
  }
  out.driver = d->second.text;
  const auto& driver = d->second.version;
  if (!driver) {
    out.why_none = "the driver version \"" + d->second.text + "\" does not parse";
    return out;
  }
  if (gpus.count == 0) out.why_none = "no NVIDIA GPU was found; the choice below is for the driver alone";
  for (const char* fw : {"pytorch", "tensorflow", "jax"}) {
    NgcRecommendation rec;
    rec.framework = fw;
    const auto releases = find_ngc_releases(matrix, fw);  // newest first
    rec.releases_known = releases.size();
    for (auto* r : releases) {
      std::string blocked;
      if (r->min_compute_capability && gpus.lowest_cc && *gpus.lowest_cc < *r->min_compute_capability)
        blocked = r->tag + ": supports compute capability " + r->min_compute_capability->text() + " and newer; this host has " +
                  gpus.lowest_cc->text();
      const bool native = !(*driver < r->min_driver);
      if (blocked.empty() && native) {
        rec.native = choice(*r, matrix);
        break;  // older releases all fit the driver too
      }
      if (blocked.empty() && gpus.count > 0 && gpus.all_data_center && on_forward_branch(*r, *driver)) {
        if (!rec.forward_compat) rec.forward_compat = choice(*r, matrix);
        continue;
      }
      if (blocked.empty()) {
        blocked = r->tag + ": " + driver_need(*r, matrix);
        if (!r->forward_compat_branches.empty())
          blocked += gpus.all_data_center && gpus.count > 0
                         ? "; forward compatibility only from branches " + join(version_texts(r->forward_compat_branches), ", ")
                         : "; forward compatibility is for data-center GPUs only";
      }
      if (rec.newer_blocked.size() < 3 && !rec.forward_compat) rec.newer_blocked.push_back(blocked);
    }
    out.frameworks.push_back(std::move(rec));
  }
  return out;
}

}  // namespace gpucheck
