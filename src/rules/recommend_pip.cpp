#include "rules/recommend_pip.hpp"

#include <algorithm>
#include <map>

#include "matrix/lookup.hpp"
#include "rules/code_on_gpu.hpp"
#include "rules/fact_view.hpp"
#include "util/strings.hpp"
#include "util/version.hpp"

namespace gpucheck {

namespace {

struct HostGpus {
  std::string vendor;                       // of the first GPU; a mixed host is judged by it
  std::vector<std::optional<Version>> ccs;  // one per NVIDIA GPU; nullopt: not known
  std::vector<std::string> gfx;             // one per AMD GPU; "" when not known
  std::string names;
  int count = 0;
};

HostGpus host_gpus(const std::vector<Subject>& subjects) {
  HostGpus h;
  std::map<std::string, int> names;
  std::vector<std::string> order;
  for (const auto& s : subjects) {
    if (s.scope != Scope::gpu) continue;
    const auto at = [&](const char* k) { return s.facts.find(k); };
    const auto vendor = at("gpu.vendor");
    if (vendor == s.facts.end() || (vendor->second.text != "nvidia" && vendor->second.text != "amd")) continue;
    if (h.vendor.empty()) h.vendor = vendor->second.text;
    if (vendor->second.text != h.vendor) continue;
    ++h.count;
    if (h.vendor == "nvidia") {
      const auto cc = at("gpu.compute_capability");
      h.ccs.push_back(cc == s.facts.end() ? std::nullopt : cc->second.version);
    } else {
      const auto gfx = at("gpu.gfx_target");
      h.gfx.push_back(gfx == s.facts.end() ? "" : gfx->second.text.substr(0, gfx->second.text.find(':')));
    }
    const auto name = at("gpu.name");
    std::string n = name == s.facts.end() ? "unknown GPU" : name->second.text;
    if (h.vendor == "amd" && !h.gfx.back().empty()) n += " (" + h.gfx.back() + ")";
    if (names[n]++ == 0) order.push_back(n);
  }
  for (const auto& n : order) h.names += (h.names.empty() ? "" : ", ") + std::to_string(names[n]) + " × " + n;
  return h;
}

// How pip asks for one matrix entry, or nothing for an entry pip cannot be
// pointed at (a vLLM build off PyPI, TensorFlow before its [and-cuda] extra).
struct PipForm {
  std::string framework, requirement;
  std::optional<std::string> index_url;
};

std::string version_spec(const FrameworkVariant& v) {
  const std::string t = v.version.text();
  // "2.15" is the series, every 2.15.x; "0.11.0" and "0.4.0.post1" one release.
  return std::count(t.begin(), t.end(), '.') >= 2 ? "==" + t : "==" + t + ".*";
}

std::optional<PipForm> pip_form(const FrameworkVariant& v) {
  const std::string spec = version_spec(v);
  if (v.framework == "torch") {
    if (v.pypi_default) return PipForm{"torch", "torch" + spec, std::nullopt};
    if (v.variant.empty() || v.variant == "cpu") return std::nullopt;
    return PipForm{"torch", "torch" + spec, "https://download.pytorch.org/whl/" + v.variant};
  }
  if (v.framework == "vllm" && v.pypi_default) return PipForm{"vllm", "vllm" + spec, std::nullopt};
  for (const char* major : {"12", "13"})
    if (v.framework == std::string("jax-cuda") + major + "-plugin")
      return PipForm{"jax", std::string("jax[cuda") + major + "]" + spec, std::nullopt};
  if (v.framework == "tensorflow" && v.cuda && !(v.version < Version::parse("2.14").value()))
    return PipForm{"tensorflow", "tensorflow[and-cuda]" + spec, std::nullopt};
  return std::nullopt;
}

std::string label_of(const FrameworkVariant& v) {
  return v.framework + " " + v.version.text() + (v.variant.empty() ? "" : " " + v.variant);
}

struct Verdict {
  bool fits = false;
  bool unconfirmed = false;
  std::string text;  // why it fits, or why not
};

Verdict judge_cuda(const FrameworkVariant& v, const Version& driver, const HostGpus& gpus, const Matrix& m) {
  if (!v.cuda) return {false, false, "not a CUDA build"};
  const CudaRelease* rel = find_cuda_release(m, *v.cuda);
  if (!rel || !rel->min_driver_linux)
    return {false, true, "the matrix has no minimum driver for CUDA " + v.cuda->text()};
  if (driver < *rel->min_driver_linux)
    return {false, false,
            "CUDA " + v.cuda->text() + " needs driver " + rel->min_driver_linux->text() + " or newer (this driver: " +
                driver.text() + ")"};
  std::string why = "driver " + driver.text() + " runs CUDA " + v.cuda->text() + " (needs " + rel->min_driver_linux->text() + ")";
  std::vector<std::string> seen, shown;
  for (const auto& cc : gpus.ccs) {
    if (!cc) return {false, true, "a GPU's compute capability is unknown"};
    if (std::find(seen.begin(), seen.end(), cc->text()) != seen.end()) continue;
    seen.push_back(cc->text());
    shown.push_back(cc->text());
    if (v.min_compute_capability && *cc < *v.min_compute_capability)
      return {false, false, "needs compute capability " + v.min_compute_capability->text() + " or newer; a GPU is " + cc->text()};
    if (v.max_compute_capability && *v.max_compute_capability < *cc)
      return {false, false, "supports compute capability up to " + v.max_compute_capability->text() + "; a GPU is " + cc->text()};
    if (v.arch_list.empty()) {
      if (v.min_compute_capability) continue;  // a stated floor is what the library promises
      return {false, true, "the matrix does not list its architectures"};
    }
    const auto code = code_on_gpu(v.arch_list, v.ptx, *cc);
    if (!code.sass && !code.ptx)
      return {false, false,
              "no code for compute capability " + cc->text() + " (SASS for " + join(version_texts(v.arch_list), ", ") +
                  (v.ptx ? ", PTX for " + v.ptx->text() : ", no PTX") + ")"};
    // PTX runs, but the driver compiles every kernel at first use.
    if (!code.sass) shown.back() += " (PTX only: compiled by the driver at first use)";
  }
  if (!shown.empty()) why += "; code for compute capability " + join(shown, ", ");
  return {true, false, why};
}

Verdict judge_rocm(const FrameworkVariant& v, const HostGpus& gpus) {
  if (!v.rocm) return {false, false, "not a ROCm build"};
  if (v.gfx_targets.empty()) return {false, true, "the matrix does not list its gfx targets"};
  std::vector<std::string> seen;
  for (const auto& gfx : gpus.gfx) {
    if (gfx.empty()) return {false, true, "a GPU's gfx target is unknown"};
    if (std::find(seen.begin(), seen.end(), gfx) != seen.end()) continue;
    seen.push_back(gfx);
    if (std::find(v.gfx_targets.begin(), v.gfx_targets.end(), gfx) == v.gfx_targets.end())
      return {false, false, "no code for " + gfx + " (built for " + join(v.gfx_targets, ", ") + ")"};
  }
  return {true, false, "carries code for " + join(seen, ", ")};
}

std::string command_of(const PipForm& f) {
  return "pip install '" + f.requirement + "'" + (f.index_url ? " --index-url " + *f.index_url : "");
}

}  // namespace

PipRecommendations recommend_pip(const Facts& facts, const Matrix& matrix) {
  PipRecommendations out;
  const auto subjects = build_subjects(facts, matrix);
  const auto& host = subjects.front().facts;
  const HostGpus gpus = host_gpus(subjects);
  out.vendor = gpus.vendor;
  out.gpus = gpus.count ? gpus.names : "no GPU";
  std::optional<Version> driver;
  if (auto d = host.find("driver.version"); d != host.end()) {
    out.driver = d->second.text;
    driver = d->second.version;
  }
  if (gpus.count == 0) {
    out.why_none = "no NVIDIA or AMD GPU was found: a GPU build is chosen for the GPUs it runs on";
    return out;
  }
  if (gpus.vendor == "nvidia" && !driver) {
    out.why_none = out.driver ? "the driver version \"" + *out.driver + "\" does not parse"
                              : "the NVIDIA driver's version is unknown, so no CUDA build can be judged";
    return out;
  }
  const bool amd = gpus.vendor == "amd";
  std::vector<const FrameworkVariant*> candidates;
  for (const auto& v : matrix.frameworks)
    if (pip_form(v) && (amd ? v.rocm.has_value() : v.cuda.has_value())) candidates.push_back(&v);
  // Newest release first; of one release, the newest runtime first.
  std::stable_sort(candidates.begin(), candidates.end(), [](const FrameworkVariant* a, const FrameworkVariant* b) {
    if (!(a->version == b->version)) return b->version < a->version;
    const auto& ra = a->cuda ? a->cuda : a->rocm;
    const auto& rb = b->cuda ? b->cuda : b->rocm;
    return ra && rb && *rb < *ra;
  });
  for (const char* name : {"torch", "jax", "vllm", "tensorflow"}) {
    PipFramework fw;
    fw.framework = name;
    for (const auto* v : candidates) {
      const auto form = pip_form(*v);
      if (form->framework != name) continue;
      ++fw.known;
      const Verdict verdict = amd ? judge_rocm(*v, gpus) : judge_cuda(*v, *driver, gpus, matrix);
      if (verdict.fits) {
        fw.builds.push_back(PipBuild{label_of(*v), form->requirement, form->index_url, command_of(*form),
                                     amd ? "ROCm " + v->rocm->text() : "CUDA " + v->cuda->text(), verdict.text, v->sources});
        continue;
      }
      (fw.builds.empty() ? fw.newer : fw.older).push_back(PipExcluded{label_of(*v), verdict.text, verdict.unconfirmed});
    }
    out.frameworks.push_back(std::move(fw));
  }
  return out;
}

}  // namespace gpucheck
