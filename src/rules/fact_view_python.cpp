// Each Python environment's and framework build's facts, and a build on
// each GPU (does it carry code the GPU runs).
#include <algorithm>
#include <map>

#include "matrix/lookup.hpp"
#include "matrix/platform_knowledge.hpp"
#include "rules/code_on_gpu.hpp"
#include "rules/fact_view_parts.hpp"
#include "util/paths.hpp"
#include "util/python_name.hpp"
#include "util/strings.hpp"
#include "util/version.hpp"

namespace gpucheck::fact_view {

namespace {

std::optional<Version> arch_bound(const std::vector<std::optional<Version>>& archs, bool newest) {
  std::optional<Version> best;
  for (auto& v : archs)
    if (v && (!best || (newest ? *best < *v : *v < *best))) best = *v;
  return best;
}

// cuDNN: what a build was made with against what it will load, each at
// major.minor, since XLA's and PyTorch's start-up checks accept a newer patch
// (and a newer minor) of the same major and refuse anything else. What it
// loads: what the deep probe saw loaded, else the environment's cuDNN wheel
// for the build's CUDA major (a system cuDNN is not attributed).
void cudnn_facts(const FrameworkBuild& fw, const FrameworkVariant* v, const PythonEnv& e, FactMap& out) {
  auto put = [&](const char* key, const char* major_key, const std::optional<Version>& parsed, const std::string& src) {
    if (!parsed) return;
    out[key] = F::of_version(parsed->major_minor(), src);
    out[major_key] = F::of_number(static_cast<double>(parsed->major()), src);
  };
  if (fw.cudnn) put("framework.cudnn_built", "framework.cudnn_built_major", Version::parse(*fw.cudnn), fw.source);
  else if (v && v->cudnn)
    put("framework.cudnn_built", "framework.cudnn_built_major", v->cudnn,
        "matrix: " + v->framework + " " + v->version.text() + " (" + v->sources.front() + ")");
  if (e.deep)
    for (auto& d : e.deep->frameworks)
      if (d.name == fw.name && d.cudnn_version) {
        put("framework.cudnn_runtime", "framework.cudnn_runtime_major", Version::parse(*d.cudnn_version),
            "deep probe (" + e.interpreter + ")");
        return;
      }
  auto cuda = out.find("framework.cuda");
  if (cuda == out.end()) return;
  const auto& cv = cuda->second.version;
  if (!cv) return;
  // cuDNN's wheel for the build's CUDA major: "nvidia-cudnn-cu12" (matrix/libraries.json).
  const std::string suffix = "-cu" + std::to_string(cv->major());
  for (auto& d : e.distributions)
    if (const std::string name = normalize_dist_name(d.name);
        name.size() > suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0 &&
        library_of_wheel(name) == "cudnn") {
      put("framework.cudnn_runtime", "framework.cudnn_runtime_major", Version::parse(d.version), d.source);
      return;
    }
}

}  // namespace

FactMap env_facts(const PythonEnv& e) {
  FactMap out;
  out["python.interpreter"] = F::of_text(e.interpreter, join(e.found_via, ", "));
  if (e.version) out["python.version"] = F::of_version(*e.version, e.interpreter);
  std::vector<std::string> unmet, majors, shadowed, missing;
  std::string unmet_src;
  for (auto& d : e.distributions) {
    for (auto& r : d.requires_dist)
      if (r.satisfied == false) {
        unmet.push_back(d.name + " " + d.version + " requires " + r.name + r.specifier + ", installed " + r.installed.value_or("none"));
        if (unmet_src.empty()) unmet_src = d.source;
      }
    // nvidia-cudnn-cu12, nvidia-cublas-cu11: the wheel names carry the CUDA major.
    const auto name = to_lower(d.name);
    const auto cu = name.rfind("-cu");
    if (starts_with(name, "nvidia-") && cu != std::string::npos && parse_int(name.substr(cu + 3))) {
      const auto major = name.substr(cu + 3);
      if (std::find(majors.begin(), majors.end(), major) == majors.end()) majors.push_back(major);
    }
  }
  // cuDNN 9 alone is eight objects: one line per (package, winning directory).
  std::map<std::string, std::vector<std::string>> shadow_groups;
  std::vector<std::string> shadow_order;
  for (auto& v : e.loader)
    for (auto& n : v.needed) {
      if (n.shadows_bundled && n.path) {
        const std::string key = v.owner + " loads {} from " + dir_of(*n.path) + " (via " + n.via.value_or("?") +
                                "), not its own copies in " + (n.other_copies.empty() ? "its package" : dir_of(n.other_copies.front()));
        if (!shadow_groups.count(key)) shadow_order.push_back(key);
        auto& names = shadow_groups[key];
        if (std::find(names.begin(), names.end(), n.soname) == names.end()) names.push_back(n.soname);
      }
      if (!n.path) missing.push_back(v.owner + ": " + n.soname + " (needed by " + v.object + ")");
    }
  for (auto& key : shadow_order) {
    const auto at = key.find("{}");
    shadowed.push_back(key.substr(0, at) + join(shadow_groups[key], ", ") + key.substr(at + 2));
  }
  out["python.unmet_pins"] = F::of_list(unmet, unmet_src.empty() ? "installed distributions' metadata" : unmet_src);
  out["python.nvidia_cuda_majors"] = F::of_list(majors, "nvidia-* wheels installed in " + e.interpreter);
  if (!e.loader.empty()) {
    out["python.shadowed_libraries"] = F::of_list(shadowed, "ELF dynamic sections resolved as the loader would");
    out["python.missing_libraries"] = F::of_list(missing, "ELF dynamic sections resolved as the loader would");
  }
  return out;
}

namespace {

// What a build's CUDA asks of the driver and the GPU, from cuda.json: the
// same whether the install says its CUDA (torch's version.py) or the
// matrix's entry of the build does (vLLM's wheel says none).
void build_cuda_facts(const std::string& cuda, const std::string& source, const Matrix& m, FactMap& out) {
  out["framework.cuda"] = F::of_version(cuda, source);
  const auto v = Version::parse(cuda);
  if (!v) return;
  out["framework.cuda_major"] = F::of_number(static_cast<double>(v->major()), source);
  if (auto* r = find_cuda_release(m, *v); r && r->min_driver_linux)
    out["framework.cuda_min_driver"] =
        F::of_version(*r->min_driver_linux, "matrix: CUDA " + r->version.text() + " (" + r->sources.front() + ")");
  if (auto* fam = find_cuda_family(m, static_cast<int>(v->major()))) {
    const std::string src = "matrix: CUDA " + std::to_string(fam->major) + ".x (" + fam->sources.front() + ")";
    if (fam->minor_compat_min_driver) out["framework.cuda_compat_min_driver"] = F::of_version(*fam->minor_compat_min_driver, src);
    // With minor-version compatibility any driver of the family runs the
    // build; without it, only one whose CUDA is at least the build's.
    out["framework.driver_cuda_floor"] =
        fam->minor_compat_min_driver ? F::of_version(std::to_string(fam->major) + ".0", src) : F::of_version(cuda, source);
    if (fam->min_compute_capability) out["framework.cuda_min_compute_capability"] = F::of_version(*fam->min_compute_capability, src);
  }
}

}  // namespace

FactMap framework_facts(const FrameworkBuild& fw, const PythonEnv& e, const Matrix& m) {
  FactMap out;
  out["framework.name"] = F::of_text(fw.name, fw.source);
  if (!fw.version.empty()) out["framework.version"] = F::of_version(fw.version, fw.source);
  if (fw.local_tag) out["framework.variant"] = F::of_text(*fw.local_tag, fw.source);
  if (fw.cuda) build_cuda_facts(*fw.cuda, fw.source, m, out);
  if (fw.hip) out["framework.hip"] = F::of_version(*fw.hip, fw.source);
  out["framework.cpu_only"] = F::of_bool(fw.cpu_only, fw.source);
  std::string variant = fw.local_tag.value_or("");
  if (variant.empty() && fw.cpu_only) variant = "cpu";
  const auto variants = find_framework_variants(m, fw.name, fw.version, variant);
  const FrameworkVariant* v = variants.empty() ? nullptr : variants.front();
  // A bare version is what pip installs from PyPI: the build marked as its default.
  if (!v && variant.empty() && !fw.hip) v = find_pypi_default(m, fw.name, fw.version, fw.cuda);
  out["framework.known"] = F::of_bool(v != nullptr, "matrix: frameworks");
  if (v) {
    const std::string src = "matrix: " + v->framework + " " + v->version.text() + (v->variant.empty() ? "" : " " + v->variant) +
                            " (" + v->sources.front() + ")";
    if (!v->arch_list.empty()) out["framework.arch_list"] = F::of_list(v->arch_list, src);
    if (!v->gfx_targets.empty()) out["framework.gfx_targets"] = F::of_list(v->gfx_targets, src);
    if (v->ptx) out["framework.ptx"] = F::of_version(*v->ptx, src);
    if (v->min_compute_capability) out["framework.min_compute_capability"] = F::of_version(*v->min_compute_capability, src);
    if (v->max_compute_capability) out["framework.max_compute_capability"] = F::of_version(*v->max_compute_capability, src);
    if (!fw.cuda && v->cuda) build_cuda_facts(v->cuda->text(), src, m, out);
  }
  if (e.deep) {
    for (auto& d : e.deep->frameworks) {
      if (d.name != fw.name) continue;
      const std::string src = e.kind == "report" ? "the report" : "deep probe (" + e.interpreter + ")";
      if (!d.arch_list.empty()) {
        std::vector<std::string> archs;
        for (auto& a : d.arch_list)
          if (starts_with(a, "sm_") && a.size() >= 5) archs.push_back(a.substr(3, a.size() - 4) + "." + a.substr(a.size() - 1));
        if (!archs.empty()) out["framework.arch_list"] = F::of_list(archs, src);
      }
      if (d.cuda_available) out["framework.cuda_available"] = F::of_bool(*d.cuda_available, src);
      if (d.tf32_matmul) out["framework.tf32_matmul"] = F::of_bool(*d.tf32_matmul, src);
      if (d.float32_matmul_precision) out["framework.float32_matmul_precision"] = F::of_text(*d.float32_matmul_precision, src);
      if (d.fp32_matmul_looks_tf32) out["framework.fp32_matmul_looks_tf32"] = F::of_bool(*d.fp32_matmul_looks_tf32, src);
    }
  }
  cudnn_facts(fw, v, e, out);
  if (auto it = out.find("framework.arch_list"); it != out.end()) {
    if (auto lo = arch_bound(it->second.item_versions, false)) out["framework.arch_min"] = F::of_version(*lo, it->second.source);
    if (auto hi = arch_bound(it->second.item_versions, true)) out["framework.arch_max"] = F::of_version(*hi, it->second.source);
  }
  return out;
}

void build_on_gpu_facts(const FactMap& fw, const FactMap& gpu, FactMap& out) {
  auto targets = fw.find("framework.gfx_targets");
  auto gfx = gpu.find("gpu.gfx_target");
  if (targets != fw.end() && gfx != gpu.end())
    out["build.has_gfx_target"] = F::of_bool(lists(targets->second.items, gfx->second.text),
                                             targets->second.source + "; GPU " + gfx->second.text);
  auto archs = fw.find("framework.arch_list");
  auto cc = gpu.find("gpu.compute_capability");
  if (archs == fw.end() || cc == gpu.end()) return;
  const auto& g = cc->second.version;
  if (!g) return;
  std::optional<Version> ptx;
  if (auto p = fw.find("framework.ptx"); p != fw.end()) ptx = p->second.version;
  const auto code = code_on_gpu(archs->second.item_versions, ptx, *g);
  const std::string src = archs->second.source + "; GPU " + cc->second.text;
  out["build.has_sass"] = F::of_bool(code.sass, src);
  out["build.runs_on_gpu"] = F::of_bool(code.sass || code.ptx, src);
}

// The oldest and the newest build of the framework in the matrix whose code
// runs on the GPU, so that a fix can name one instead of "a newer build".
void builds_for_gpu_facts(const Matrix& m, const std::string& framework, const FactMap& gpu, FactMap& out) {
  std::optional<Version> cc;
  if (auto it = gpu.find("gpu.compute_capability"); it != gpu.end()) cc = it->second.version;
  std::string gfx;
  if (auto it = gpu.find("gpu.gfx_target"); it != gpu.end()) gfx = it->second.text;
  if (!cc && gfx.empty()) return;
  const auto runs = [&](const FrameworkVariant& v) {
    if (cc && !v.arch_list.empty()) {
      const auto code = code_on_gpu(v.arch_list, v.ptx, *cc);
      return code.sass || code.ptx;
    }
    return !gfx.empty() && lists(v.gfx_targets, gfx);
  };
  // A framework the matrix holds no builds of (paddlepaddle) has no "first build" to name.
  if (std::none_of(m.frameworks.begin(), m.frameworks.end(), [&](const FrameworkVariant& v) { return v.framework == framework; })) return;
  const FrameworkVariant* first = nullptr;
  const FrameworkVariant* last = nullptr;
  for (auto& v : m.frameworks) {
    if (v.framework != framework) continue;
    if (!runs(v)) continue;
    if (!first || v.version < first->version) first = &v;
    if (!last || last->version < v.version) last = &v;
  }
  const std::string gpu_text = cc ? cc->text() : gfx;
  const auto fact = [&](const FrameworkVariant* v) {
    if (!v) return F::of_text("none", "matrix: frameworks; GPU " + gpu_text);
    return F::of_text(v->framework + " " + v->version.text() + (v->variant.empty() ? "" : " " + v->variant),
                      "matrix: " + v->framework + " " + v->version.text() + " " + v->variant + " (" + v->sources.front() + ")");
  };
  out["build.first_for_gpu"] = fact(first);
  out["build.last_for_gpu"] = fact(last);
}

}  // namespace gpucheck::fact_view
