// Which GPUs a job here can use, and whether every source sees the same
// ones: PCI, the kernel driver, nvidia-smi (or NVML) and the CUDA driver API
// each list the GPUs; a GPU one of them lost is a fault, unless a
// visibility mask or MIG says why. The environment's masks themselves.
#include <algorithm>
#include <map>

#include "facts/gpu_host.hpp"
#include "rules/fact_view_parts.hpp"
#include "util/pci_address.hpp"
#include "util/strings.hpp"

namespace gpucheck::fact_view {

namespace {

const char* const kDriverLayer = "driver";
const char* const kSmiLayer = "nvidia-smi";
const char* const kCudaLayer = "cuda";

bool has_note(const Facts& f, std::string_view subject, std::string_view item) {
  return std::any_of(f.notes.begin(), f.notes.end(), [&](const Note& n) { return n.subject == subject && n.item == item; });
}

std::optional<std::string> env_of(const Facts& f, const char* name) {
  if (auto it = f.software.gpu_env.find(name); it != f.software.gpu_env.end()) return it->second;
  return std::nullopt;
}

// The later layers that listed their GPUs (a layer that did not answer
// loses nothing: its own note says why it did not).
struct Answered {
  bool driver = false, smi = false, cuda = false;
};

Answered answered_layers(const Facts& f) {
  Answered a;
  a.driver = f.nvidia_driver.kernel_module_loaded && !has_note(f, "nvidia_kernel", "GPUs known to the kernel module");
  a.smi = f.nvidia_smi.has_value();
  // A device cuDeviceGet refused is unverified already (its note): the
  // layer's list is not whole, so no GPU is called lost from it.
  const bool refused = std::any_of(f.notes.begin(), f.notes.end(), [](const Note& n) {
    return n.subject == "cuda_driver_api" && starts_with(n.item, "device ") && n.item != "device count";
  });
  a.cuda = f.cuda && f.cuda->init_code == 0 && f.cuda->device_count.has_value() && !refused;
  // The same for NVML standing in for nvidia-smi.
  if (a.smi && starts_with(f.nvidia_smi->source, "NVML"))
    a.smi = std::none_of(f.notes.begin(), f.notes.end(), [](const Note& n) { return n.subject == "nvml" && starts_with(n.item, "device "); });
  return a;
}

// Why a job here sees no GPU, as precisely as the facts tell (the first
// cause that holds, from the outermost in).
std::string hidden_cause(const Facts& f) {
  if (f.from_report) return "the report shows no GPU";
  if (auto v = env_of(f, "NVIDIA_VISIBLE_DEVICES"); v && (*v == "none" || *v == "void" || v->empty()))
    return "NVIDIA_VISIBLE_DEVICES=" + *v + ": the container runtime gave this container no GPU";
  // The Kubernetes device plugin's volume-mounts strategy names the GPUs by
  // files under this path, not in the variable (k8s-device-plugin, DEVICE_LIST_STRATEGY).
  if (auto v = env_of(f, "NVIDIA_VISIBLE_DEVICES"); v && *v == "/var/run/nvidia-container-devices" && nvidia_gpu_device_nodes(f) == 0)
    return "the NVIDIA device plugin gave this pod no GPU (NVIDIA_VISIBLE_DEVICES names its device list, and no "
           "/dev/nvidiaN is here): the pod requests no nvidia.com/gpu";
  if (auto v = env_of(f, "CUDA_VISIBLE_DEVICES")) {
    const auto first = std::string(trim(split(*v, ',').front()));
    if (first.empty() || (parse_int(first) && *parse_int(first) < 0))
      return "CUDA_VISIBLE_DEVICES=\"" + *v + "\" hides every GPU";
  }
  const auto& runtime = f.system.container.runtime;
  if (runtime && nvidia_gpu_device_nodes(f) == 0)
    return "this " + *runtime + " container shows no /dev/nvidiaN device: it was started without GPUs (docker run --gpus, " +
           "or a Kubernetes pod without an nvidia.com/gpu request)";
  if (f.cuda && f.cuda->init_name) return "cuInit says " + *f.cuda->init_name;
  const bool pci_read = !has_note(f, "pci", "PCI devices");
  if (pci_read && std::none_of(f.pci.begin(), f.pci.end(), [](const PciDevice& d) { return d.kind == PciKind::gpu; }))
    return "no GPU on the PCI bus";
  return "no source (PCI, the kernel driver, nvidia-smi, the CUDA driver API) shows a GPU";
}

// A layer that answered and does not list a GPU the bus shows bound to the
// nvidia driver, with nothing that explains it: inside a container the
// runtime picks the GPUs (and the PCI tree is the host's), inside a Slurm
// job its cgroup does (ConstrainDevices: nvidia-smi lists only the job's);
// CUDA also skips what CUDA_VISIBLE_DEVICES hides and lists MIG instances,
// not GPUs; the driver skips a GPU it was told to exclude.
std::vector<std::string> missing_layers(const Facts& f, const InventoryGpu& g, const Answered& a) {
  std::vector<std::string> out;
  if (!g.pci || g.pci->vendor != PciVendor::nvidia || g.pci->driver.value_or("") != "nvidia") return out;
  if (f.system.container.runtime || env_of(f, "SLURM_JOB_ID")) return out;
  if (g.proc && g.proc->excluded && to_lower(*g.proc->excluded) == "yes") return out;
  if (a.driver && !g.proc) out.push_back(kDriverLayer);
  if (a.smi && !g.smi) out.push_back(kSmiLayer);
  const bool mig = g.smi && g.smi->mig_mode_current && to_lower(*g.smi->mig_mode_current) == "enabled";
  if (a.cuda && !g.cuda && !mig && !env_of(f, "CUDA_VISIBLE_DEVICES")) out.push_back(kCudaLayer);
  return out;
}

std::vector<std::string> seen_by(const InventoryGpu& g, const Facts& f) {
  std::vector<std::string> out;
  if (g.pci) out.push_back("PCI");
  if (g.proc) out.push_back(kDriverLayer);
  if (g.smi) out.push_back(f.nvidia_smi && starts_with(f.nvidia_smi->source, "NVML") ? "NVML" : kSmiLayer);
  if (g.cuda) out.push_back(kCudaLayer);
  if (g.kfd) out.push_back("KFD");
  return out;
}

}  // namespace

void visibility_facts(const Facts& f, const std::vector<InventoryGpu>& gpus, std::vector<FactMap>& gpu_maps, FactMap& host) {
  const UsableGpus usable = usable_gpus(f);
  if (usable.count) {
    host["gpu.usable_count"] = F::of_number(*usable.count, usable.source);
    if (*usable.count == 0) host["gpu.hidden_cause"] = F::of_text(hidden_cause(f), "the environment, /dev and the driver's answers");
  }
  if (!f.from_report) {
    const auto driver = nvidia_driver_evidence(f);
    host["driver.present"] = F::of_bool(!driver.empty(), driver.empty() ? "no nvidia module, /dev/nvidia*, libcuda or nvidia-smi"
                                                                        : join(driver, "; "));
  }
  const Answered a = answered_layers(f);
  const std::string src = "PCI, /proc/driver/nvidia/gpus, nvidia-smi or NVML, the CUDA driver API, by PCI address";
  int lost = 0;
  for (std::size_t i = 0; i < gpus.size() && i < gpu_maps.size(); ++i) {
    auto missing = missing_layers(f, gpus[i], a);
    lost += !missing.empty();
    gpu_maps[i]["gpu.seen_by"] = F::of_list(seen_by(gpus[i], f), src);
    gpu_maps[i]["gpu.missing_from"] = F::of_list(std::move(missing), src);
  }
  if (!f.from_report) host["gpu.missing_count"] = F::of_number(lost, src);
}

void visible_device_facts(const Facts& f, std::size_t nvidia_count, FactMap& out) {
  auto it = f.software.gpu_env.find("CUDA_VISIBLE_DEVICES");
  if (it == f.software.gpu_env.end()) return;
  std::vector<std::string> entries, out_of_range;
  int mig = 0;
  for (auto e : split(it->second, ',')) {
    const std::string s(trim(e));
    entries.push_back(s);
    if (starts_with(s, "MIG-")) ++mig;
    // CUDA stops at the first entry that is not a valid device.
    if (auto n = parse_int(s); n && (*n < 0 || (nvidia_count > 0 && static_cast<std::size_t>(*n) >= nvidia_count)))
      out_of_range.push_back(s);
  }
  out["visible.indices"] = F::of_list(entries, "CUDA_VISIBLE_DEVICES");
  out["visible.names_mig"] = F::of_bool(mig > 0, "CUDA_VISIBLE_DEVICES");
  out["visible.mig_count"] = F::of_number(mig, "CUDA_VISIBLE_DEVICES");
  if (nvidia_count > 0) out["visible.out_of_range"] = F::of_list(out_of_range, "CUDA_VISIBLE_DEVICES");
}

}  // namespace gpucheck::fact_view
