// Text report: ROCm (installs, HIP, amdgpu, KFD GPU nodes, ROCm SMI, the
// variables that steer a ROCm job). Nothing at all on a host without ROCm.
#include <map>

#include "report/text_writer.hpp"

namespace gpucheck {

namespace {

bool no_rocm(const RocmFacts& r) {
  return r.installs.empty() && !r.amdgpu_module_version && r.gpu_nodes.empty() && !r.smi && !r.hip_version && r.env.empty();
}

std::string node_text(const KfdNode& n) {
  std::string s = or_unknown(n.gfx_target, "gfx target unknown");
  s += ", " + (n.simd_count ? std::to_string(*n.simd_count) + " SIMDs" : std::string("SIMDs unknown"));
  s += ", " + (n.vram_bytes ? fmt_gib(*n.vram_bytes) : std::string("VRAM unknown"));
  if (n.device_id) s += ", device " + *n.device_id;
  return s;
}

}  // namespace

void rocm_section(Writer& w, const Facts& f) {
  const auto& r = f.software.rocm;
  if (no_rocm(r)) return;
  w.section("ROCm");
  // A host with only Debian's librocm-smi (a dependency of other packages)
  // gets that one line, not three lines of "none".
  const bool smi_only = r.installs.empty() && !r.amdgpu_module_version && r.gpu_nodes.empty() && !r.hip_version;
  if (r.installs.empty() && !smi_only) w.fact("Installs", nothing_found(f));
  for (auto& i : r.installs) {
    std::string v = or_unknown(i.version, "version unknown");
    if (i.active) v += "  " + w.style().good("active");
    w.fact(i.root, v, i.version_source.value_or(""));
  }
  if (r.hip_version) w.fact("HIP", *r.hip_version);
  if (!smi_only) w.fact("amdgpu module", or_unknown(r.amdgpu_module_version, "version unknown"));
  if (r.gpu_nodes.empty() && !smi_only) w.fact("GPU nodes", "none in the KFD topology");
  // Eight identical GPUs read as one line, not eight.
  std::map<std::string, std::vector<int>> same;
  std::vector<std::string> order;
  for (auto& n : r.gpu_nodes) {
    const auto t = node_text(n);
    if (!same.count(t)) order.push_back(t);
    same[t].push_back(n.node);
  }
  for (auto& t : order) {
    const auto& ids = same[t];
    std::string label = ids.size() == 1 ? "KFD node " : "KFD nodes ";
    for (std::size_t i = 0; i < ids.size(); ++i) {
      if (i) label += ',';
      label += std::to_string(ids[i]);
    }
    w.fact(label, (ids.size() > 1 ? std::to_string(ids.size()) + " × " : std::string()) + t);
  }
  if (r.smi) {
    const auto& s = *r.smi;
    std::string v = "library " + or_unknown(s.version, "version unknown") + ", ";
    if (s.init_status == 0)
      v += w.style().good("rsmi_init ok") + ", " + or_unknown(s.device_count, "unknown number of") + " GPU(s)";
    else
      v += w.style().bad("rsmi_init failed") + " (" + or_unknown(s.init_status) + (s.init_message ? ": " + *s.init_message : "") + ")";
    w.fact("ROCm SMI", v, s.library.value_or(""));
  }
  for (auto& [k, v] : r.env) w.fact(k, v, "environment");
}

}  // namespace gpucheck
