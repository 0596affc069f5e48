// GPU support inside containers: whether the NVIDIA container toolkit
// mounted the host's driver in (its libraries appear as bind mounts), whether
// a cuda-compat libcuda is in use, and the environment variables that steer
// which GPUs and libraries a job gets.
#include <algorithm>

#include "parse/cuda_files.hpp"
#include "probe.hpp"
#include "util/strings.hpp"

namespace gpucheck {
namespace {

// Variables that decide what a GPU job sees or loads.
constexpr const char* kGpuEnv[] = {
    "CUDA_VISIBLE_DEVICES", "NVIDIA_VISIBLE_DEVICES", "NVIDIA_DRIVER_CAPABILITIES", "NVIDIA_REQUIRE_CUDA",
    "NVIDIA_REQUIRE_DRIVER", "NVIDIA_REQUIRE_ARCH", "NVIDIA_REQUIRE_BRAND", "NVIDIA_DISABLE_REQUIRE",
    "CUDA_HOME", "CUDA_PATH", "LD_LIBRARY_PATH", "LD_PRELOAD", "CUDA_MODULE_LOADING", "CUDA_DEVICE_ORDER",
    "NCCL_P2P_DISABLE", "NCCL_IB_DISABLE", "NCCL_SOCKET_IFNAME", "NCCL_NET_PLUGIN", "NCCL_IB_HCA", "NCCL_P2P_LEVEL", "NCCL_NET_GDR_LEVEL", "PYTORCH_CUDA_ALLOC_CONF",
    "NVIDIA_TF32_OVERRIDE", "TORCH_ALLOW_TF32_CUBLAS_OVERRIDE", "XLA_FLAGS", "TF_FORCE_GPU_ALLOW_GROWTH",
    "SLURM_JOB_ID"};

// The files the toolkit's hook bind-mounts from the host (libnvidia-container).
bool is_driver_file(const std::string& mount_point) {
  const auto base = mount_point.substr(mount_point.rfind('/') + 1);
  for (const char* prefix : {"libcuda.so.", "libnvidia-ml.so.", "libnvidia-ptxjitcompiler.so.", "nvidia-smi"})
    if (starts_with(base, prefix)) return true;
  return false;
}

// What made the loader pick a cuda-compat libcuda over the host's: an
// LD_LIBRARY_PATH entry, or the ld.so.conf file that lists its directory.
std::string put_first_by(ProbeContext& ctx, const std::string& path, const std::string& via) {
  const std::string dir = path.substr(0, path.rfind('/'));
  if (via != "ld.so.cache") return via + " (" + dir + ")";
  const auto lists_dir = [&](const std::string& conf) {
    auto text = ctx.host().read_file(conf, 1 << 16);
    if (!text) return false;
    for (auto line : split_lines(*text))
      if (trim(line) == dir) return true;
    return false;
  };
  if (auto entries = ctx.host().list_dir("/etc/ld.so.conf.d"))
    for (auto& e : *entries)
      if (e.type == EntryType::file && e.name.size() > 5 && e.name.substr(e.name.size() - 5) == ".conf" &&
          lists_dir("/etc/ld.so.conf.d/" + e.name))
        return "/etc/ld.so.conf.d/" + e.name + " (" + dir + ")";
  if (lists_dir("/etc/ld.so.conf")) return "/etc/ld.so.conf (" + dir + ")";
  return "ld.so.cache (" + dir + ")";
}

}  // namespace

void probe_container_runtime(ProbeContext& ctx) {
  auto& h = ctx.host();
  auto& s = ctx.facts().software;
  for (auto* var : kGpuEnv)
    if (auto v = h.env(var)) s.gpu_env[var] = *v;

  if (auto mi = h.read_file("/proc/self/mountinfo", 4 << 20)) {
    for (auto& mp : mountinfo_mount_points(*mi))
      if (is_driver_file(mp)) {
        s.container_toolkit_injected = true;
        if (s.container_toolkit_evidence.size() < 8) s.container_toolkit_evidence.push_back(mp + " is mounted from the host");
      }
  } else if (mi.problem().reason != Reason::absent) {
    ctx.note("container_runtime", "mounts", mi.problem());
  }

  const auto& libcuda = ctx.facts().nvidia_driver.libcuda;
  if (libcuda.compat) {
    s.cuda_compat = libcuda.real_path.value_or(libcuda.path.value_or(""));
    if (libcuda.path) s.cuda_compat_entry = put_first_by(ctx, *libcuda.path, libcuda.via.value_or(""));
  }
}

}  // namespace gpucheck
