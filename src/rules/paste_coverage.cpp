#include "rules/paste_coverage.hpp"

namespace gpucheck {
namespace {

bool shows_amd(const Facts& f) {
  if (!f.software.rocm.gpu_nodes.empty() || !f.software.rocm.installs.empty()) return true;
  for (const auto& d : f.pci)
    if (d.kind == PciKind::gpu && d.vendor == PciVendor::amd) return true;
  return false;
}

// A GPU the verdict can name: a model or an architecture, not only "GPU 0".
bool shows_gpu(const Facts& f) {
  if (f.nvidia_smi)
    for (const auto& g : f.nvidia_smi->gpus)
      if (g.product_name) return true;
  if (f.cuda)
    for (const auto& d : f.cuda->devices)
      if (d.name || d.compute_capability) return true;
  for (const auto& d : f.pci)
    if (d.kind == PciKind::gpu && (d.name || !d.device_id.empty())) return true;
  for (const auto& n : f.software.rocm.gpu_nodes)
    if (n.name || n.gfx_target) return true;
  return false;
}

// An NVIDIA GPU the paste shows, which only an NVIDIA driver can run.
bool shows_nvidia_gpu(const Facts& f) {
  if ((f.nvidia_smi && !f.nvidia_smi->gpus.empty()) || (f.cuda && !f.cuda->devices.empty())) return true;
  for (const auto& d : f.pci)
    if (d.kind == PciKind::gpu && d.vendor == PciVendor::nvidia) return true;
  return false;
}

bool shows_nvidia_driver(const Facts& f) {
  if (f.nvidia_driver.kernel_module.version || f.nvidia_driver.libcuda.version) return true;
  if (f.nvidia_smi && (f.nvidia_smi->driver_version || f.nvidia_smi->cuda_version)) return true;
  return f.cuda && f.cuda->driver_version;
}

bool shows_rocm(const Facts& f) {
  if (f.software.rocm.amdgpu_module_version) return true;
  for (const auto& i : f.software.rocm.installs)
    if (i.version) return true;
  return false;
}

// The driver of the GPU shown: an NVIDIA GPU beside a ROCm release named
// in prose still needs its NVIDIA driver shown.
bool shows_driver(const Facts& f, bool amd) {
  if (shows_nvidia_gpu(f) && !shows_nvidia_driver(f)) return false;
  return shows_nvidia_driver(f) || (amd && shows_rocm(f));
}

bool shows_framework(const Facts& f) {
  for (const auto& e : f.software.python)
    for (const auto& fw : e.frameworks)
      if (!fw.version.empty()) return true;
  return false;
}

}  // namespace

std::vector<NotShown> not_shown_by(const Facts& f) {
  if (!f.report) return {};
  const bool amd = shows_amd(f);
  const std::string smi = amd ? "rocm-smi --showproductname --showdriverversion (or amd-smi static)" : "nvidia-smi";
  std::vector<NotShown> out;
  if (!shows_gpu(f)) out.push_back({"GPU model", smi});
  if (!shows_driver(f, amd)) {
    const bool nvidia_missing = shows_nvidia_gpu(f) && !shows_nvidia_driver(f);
    out.push_back({amd && !nvidia_missing ? "ROCm version" : "NVIDIA driver", nvidia_missing ? "nvidia-smi" : smi});
  }
  if (!shows_framework(f)) out.push_back({"framework", "python -m torch.utils.collect_env"});
  return out;
}

}  // namespace gpucheck
