// What a container asks of its host's driver: the image's NVIDIA_REQUIRE_*
// judged against the driver and each GPU, and the cuda-compat libcuda the
// loader picks over the host's.
#include "rules/container_require.hpp"
#include "rules/fact_view_parts.hpp"
#include "util/strings.hpp"

namespace gpucheck::fact_view {

namespace {

// The variables the NVIDIA container toolkit reads (cuda_image.go,
// GetRequirements), which gpucheck asks for by name.
constexpr const char* kRequireVariables[] = {"NVIDIA_REQUIRE_CUDA", "NVIDIA_REQUIRE_DRIVER", "NVIDIA_REQUIRE_ARCH",
                                             "NVIDIA_REQUIRE_BRAND"};

std::optional<Version> version_of(const FactMap& m, const char* name) {
  auto it = m.find(name);
  if (it == m.end()) return std::nullopt;
  return it->second.version;
}

// NVIDIA_DISABLE_REQUIRE as Go's strconv.ParseBool reads a true.
bool disabled(const std::map<std::string, std::string>& env) {
  auto it = env.find("NVIDIA_DISABLE_REQUIRE");
  if (it == env.end()) return false;
  const std::string v = to_lower(trim(it->second));
  return v == "1" || v == "t" || v == "true";
}

// The host driver's CUDA, as the toolkit reads it before the container
// starts: nvidia-smi's (or NVML's); cuDriverGetVersion only when the libcuda
// loaded is the host's, not the image's cuda-compat one (whose newer CUDA
// is what the requirement's forward-compatibility alternatives are for).
// Unknown is met, as the toolkit takes it: never the matrix's estimate.
std::optional<Version> host_driver_cuda(const Facts& f) {
  if (f.nvidia_smi && f.nvidia_smi->cuda_version) return Version::parse(*f.nvidia_smi->cuda_version);
  if (f.cuda && f.cuda->driver_version && !f.nvidia_driver.libcuda.compat) return Version::parse(*f.cuda->driver_version);
  return std::nullopt;
}

}  // namespace

void container_facts(const Facts& f, const std::vector<InventoryGpu>& gpus, const std::vector<FactMap>& gpu_maps, FactMap& host) {
  if (f.software.cuda_compat_entry) host["libcuda.compat_entry"] = F::of_text(*f.software.cuda_compat_entry, "the loader's search");
  const auto& env = f.software.gpu_env;
  if (f.from_report || disabled(env)) return;
  RequireValues base;
  base.cuda = host_driver_cuda(f);
  base.driver = version_of(host, "driver.kernel_module");
  if (!base.driver) base.driver = version_of(host, "driver.version");
  for (const char* name : kRequireVariables) {
    auto it = env.find(name);
    if (it == env.end()) continue;
    // Judged for every GPU the container is given (what nvidia-smi or CUDA
    // lists: the PCI tree is the host's); with none, arch and brand are
    // taken as met, as the toolkit does.
    std::vector<std::pair<std::string, RequireValues>> on;
    for (std::size_t i = 0; i < gpus.size() && i < gpu_maps.size(); ++i) {
      if (!gpus[i].smi && !gpus[i].cuda) continue;
      RequireValues v = base;
      v.arch = version_of(gpu_maps[i], "gpu.compute_capability");
      if (gpus[i].smi && gpus[i].smi->product_brand) v.brand = container_brand(*gpus[i].smi->product_brand);
      on.emplace_back(" on " + gpu_label(gpu_maps[i]), v);
    }
    if (on.empty()) on.emplace_back("", base);
    for (auto& [where, values] : on)
      if (auto why = unmet_requirement(it->second, values)) {
        host["container.require_unmet"] = F::of_text(std::string(name) + ": " + *why + where, "the image's environment (" + std::string(name) + ")");
        return;
      }
  }
}

}  // namespace gpucheck::fact_view
