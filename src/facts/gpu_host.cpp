#include "facts/gpu_host.hpp"

#include <algorithm>

#include "facts/gpu_inventory.hpp"
#include "util/strings.hpp"

namespace gpucheck {

namespace {

int count_pci(const Facts& f, PciVendor v) {
  return static_cast<int>(std::count_if(f.pci.begin(), f.pci.end(),
                                        [v](const PciDevice& d) { return d.kind == PciKind::gpu && d.vendor == v; }));
}

std::size_t nvidia_bound_on_pci(const Facts& f) {
  return static_cast<std::size_t>(std::count_if(f.pci.begin(), f.pci.end(), [](const PciDevice& d) {
    return d.kind == PciKind::gpu && d.vendor == PciVendor::nvidia && d.driver.value_or("") == "nvidia";
  }));
}

std::string gpus_text(int n) { return std::to_string(n) + " GPU" + (n == 1 ? "" : "s"); }

const Note* note_of(const Facts& f, std::string_view subject, std::string_view item = {}) {
  for (auto& n : f.notes)
    if (n.subject == subject && (item.empty() || n.item == item)) return &n;
  return nullptr;
}

// nvidia-smi ran (answered, hung or failed): it is installed, so the driver is.
bool nvidia_smi_ran(const Facts& f) {
  if (f.nvidia_smi) return true;
  const Note* n = note_of(f, "nvidia_smi");
  // Absent, not recorded or not asked (--level 1): nothing says it is there.
  return n && n->problem.reason != Reason::absent && n->problem.reason != Reason::not_recorded && n->problem.reason != Reason::skipped;
}

bool real_libcuda(const Facts& f) { return f.nvidia_driver.libcuda.path && !f.nvidia_driver.libcuda.stub; }

}  // namespace

std::vector<std::string> GpuHostEvidence::all() const {
  std::vector<std::string> out = nvidia;
  out.insert(out.end(), amd.begin(), amd.end());
  out.insert(out.end(), other.begin(), other.end());
  return out;
}

int nvidia_gpu_device_nodes(const Facts& f) {
  return static_cast<int>(std::count_if(f.nvidia_driver.device_nodes.begin(), f.nvidia_driver.device_nodes.end(),
                                         [](const std::string& n) { return n != "/dev/nvidiactl" && n != "/dev/dxg"; }));
}

std::vector<std::string> nvidia_driver_evidence(const Facts& f) {
  std::vector<std::string> out;
  const auto& d = f.nvidia_driver;
  if (d.kernel_module_loaded) out.push_back("the nvidia kernel module (" + d.kernel_module.source + ")");
  std::vector<std::string> nodes;
  for (auto& n : d.device_nodes)
    if (n != "/dev/dxg") nodes.push_back(n);
  if (!nodes.empty()) out.push_back(join(nodes, ", "));
  if (real_libcuda(f)) out.push_back("libcuda.so.1 (" + *d.libcuda.path + ")");
  if (nvidia_smi_ran(f)) out.push_back("nvidia-smi");
  return out;
}

GpuHostEvidence gpu_host_evidence(const Facts& f) {
  GpuHostEvidence e;
  if (f.from_report) {
    int nvidia = 0, amd = 0;
    for (auto& g : gpu_inventory(f)) {
      if (g.kfd || (g.pci && g.pci->vendor == PciVendor::amd)) ++amd;
      else ++nvidia;
    }
    if (nvidia) e.nvidia.push_back("the report's " + gpus_text(nvidia));
    if (amd) e.amd.push_back("the report's " + gpus_text(amd) + " (AMD)");
    return e;
  }
  if (const int n = count_pci(f, PciVendor::nvidia)) e.nvidia.push_back("the PCI bus (" + gpus_text(n) + ")");
  if (!f.nvidia_driver.gpus.empty()) e.nvidia.push_back("/proc/driver/nvidia/gpus (" + gpus_text(static_cast<int>(f.nvidia_driver.gpus.size())) + ")");
  for (auto& piece : nvidia_driver_evidence(f)) e.nvidia.push_back(piece);
  if (const int n = count_pci(f, PciVendor::amd)) e.amd.push_back("the PCI bus (" + gpus_text(n) + ", AMD)");
  if (!f.software.rocm.gpu_nodes.empty())
    e.amd.push_back("the KFD topology (" + gpus_text(static_cast<int>(f.software.rocm.gpu_nodes.size())) + ")");
  for (auto& n : f.nvidia_driver.device_nodes)
    if (n == "/dev/dxg") e.other.push_back("/dev/dxg (WSL2's GPU)");
  return e;
}

UsableGpus usable_gpus(const Facts& f) {
  if (f.from_report) {
    const int n = static_cast<int>(gpu_inventory(f).size());
    return {n, "the GPUs the report shows", {}};
  }
  const GpuHostEvidence e = gpu_host_evidence(f);
  UsableGpus nvidia{0, "", ""};
  if (e.nvidia_host()) {
    if (f.cuda && f.cuda->init_code && *f.cuda->init_code != 0) {
      nvidia.source = "cuInit failed (" + f.cuda->init_name.value_or("CUDA error " + std::to_string(*f.cuda->init_code)) + ")";
    } else if (f.cuda && f.cuda->device_count) {
      nvidia = {static_cast<int>(f.cuda->devices.size()), "the CUDA driver API's devices", {}};
    } else if (f.cuda) {
      const Note* n = note_of(f, "cuda_driver_api", "device count");
      nvidia = {std::nullopt, "", n ? n->problem.detail : "the CUDA driver API gave no device count"};
    } else if (const Note* n = note_of(f, "cuda_driver_api", "CUDA driver"); n && n->problem.reason == Reason::skipped) {
      // --level 1 asks no driver call: the files' count is all it has. A
      // container sees the host's PCI tree, so there only the driver's list.
      const std::size_t on_pci = f.system.container.runtime ? 0 : nvidia_bound_on_pci(f);
      const int listed = static_cast<int>(std::max<std::size_t>(f.nvidia_driver.gpus.size(), on_pci));
      nvidia = {listed, "the GPUs the kernel driver lists (--level 1 asks the CUDA driver API nothing)", {}};
    } else if (n && n->problem.reason != Reason::absent) {
      nvidia = {std::nullopt, "", "the CUDA driver API did not answer: " + n->problem.detail};
    } else if (!real_libcuda(f)) {
      nvidia.source = f.nvidia_driver.libcuda.stub ? "libcuda.so.1 is a CUDA toolkit's stub" : "no libcuda.so.1: no CUDA program can start";
    } else {
      nvidia = {std::nullopt, "", "the CUDA driver API was not asked"};
    }
  }
  if (!nvidia.count) return nvidia;
  int amd = 0;
  if (e.amd_host()) amd = static_cast<int>(f.software.rocm.gpu_nodes.size());
  UsableGpus out{*nvidia.count + amd, nvidia.source, {}};
  if (e.amd_host()) out.source += std::string(out.source.empty() ? "" : " and ") + "the KFD topology's GPU nodes";
  if (out.source.empty()) out.source = "no GPU on this host";
  return out;
}

}  // namespace gpucheck
