#include "probe.hpp"

#include "util/strings.hpp"

namespace gpucheck {

std::optional<std::string> ProbeContext::read_text(const std::string& subject, const std::string& item,
                                                   const std::string& path) {
  auto r = host_.read_file(path, 1 << 20);
  if (!r) {
    note(subject, item, r.problem());
    return std::nullopt;
  }
  if (!is_text(*r)) {
    note(subject, item, Problem{Reason::malformed, path, "holds binary data, not text"});
    return std::nullopt;
  }
  return *r;
}

void ProbeContext::start(const Command& cmd) {
  if (started_.count(cmd.key())) return;
  started_.emplace(cmd.key(), std::async(std::launch::async, [&h = host_, cmd] { return h.run(cmd); }));
}

Result<CommandResult> ProbeContext::run(const Command& cmd) {
  auto it = started_.find(cmd.key());
  if (it == started_.end()) return host_.run(cmd);
  auto answer = it->second.get();
  started_.erase(it);
  return answer;
}

const std::vector<ProbeInfo>& all_probes() {
  static const std::vector<ProbeInfo> probes = {
      {"system", "uname; /etc/os-release; /.dockerenv, /run/.containerenv, /proc/1/cgroup; container environment", probe_system},
      {"pci", "/sys/bus/pci/devices/*/{vendor,device,class,driver,numa_node,*_link_*}; pci.ids", probe_pci},
      {"nvidia_kernel", "/proc/driver/nvidia/version, /sys/module/nvidia/version, /proc/driver/nvidia/gpus/*/information", probe_nvidia_kernel},
      {"nvidia_userspace", "LD_LIBRARY_PATH, /etc/ld.so.cache, default library directories: libcuda.so.1, libnvidia-ml.so.1", probe_nvidia_userspace},
      {"cuda_driver_api", "libcuda.so.1 loaded in a child process: cuInit, cuDriverGetVersion, cuDeviceGet*", probe_cuda_driver_api},
      {"nvidia_smi", "nvidia-smi -q -x", probe_nvidia_smi, start_nvidia_smi},
      {"services", "/proc/*/comm; /usr/bin/nv-fabricmanager, /usr/bin/nvidia-persistenced; /var/lib/dpkg/status", probe_services},
      {"kernel_log", "/dev/kmsg (NVRM Xid lines)", probe_kernel_log},
      {"python", "python3 on PATH, $VIRTUAL_ENV, $CONDA_PREFIX, --python: sys.path (asked once, with a deadline), dist-info, egg-info, conda-meta; framework version files; --deep: probes/deep_probe.py", probe_python, start_python},
      {"cuda_toolkits", "/usr/local/cuda*, /opt/nvidia/hpc_sdk, conda environments: version.json, version.txt, dist-info, cuda.h; nvcc --version as a last resort; PATH, CUDA_HOME, CUDA_PATH", probe_cuda_toolkits},
      {"gpu_libraries", "cuDNN, NCCL, cuBLAS, cuFFT, NVRTC, nvJitLink, TensorRT, CUDA runtime: headers, library file names, pip wheels, /etc/ld.so.cache", probe_gpu_libraries},
      {"loader", "ELF dynamic sections (DT_NEEDED, RPATH, RUNPATH) of the frameworks' shared objects, resolved as the dynamic loader would", probe_loader},
      {"rocm", "/opt/rocm*/.info/version, /sys/module/amdgpu/version, KFD topology, librocm_smi64 in a child process, HIP version; HSA_OVERRIDE_GFX_VERSION, HIP_VISIBLE_DEVICES", probe_rocm},
      {"container_runtime", "/proc/self/mountinfo (driver files mounted by the NVIDIA container toolkit), cuda-compat", probe_container_runtime},
  };
  return probes;
}

Facts run_probes(const Host& host, const ProbeOptions& opts) {
  ProbeContext ctx(host, opts);
  for (auto& p : all_probes())
    if (p.start) p.start(ctx);
  for (auto& p : all_probes()) {
    if (ctx.deadline().expired()) {
      ctx.note(p.name, "probe", Problem{Reason::timed_out, p.name, "skipped: the run's --timeout was reached"});
      continue;
    }
    p.run(ctx);
  }
  return std::move(ctx.facts());
}

}  // namespace gpucheck
