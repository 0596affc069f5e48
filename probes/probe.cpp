#include "probe.hpp"

#include <iterator>

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

void ProbeContext::start_call(IsolatedCall call, Millis deadline, std::string library) {
  const std::string key = call.key;
  if (calls_.count(key)) return;
  calls_.emplace(key, StartedCall{std::async(std::launch::async,
                                             [&h = host_, call = std::move(call), deadline] { return h.isolated_call(call, deadline); }),
                                  deadline, std::move(library)});
}

std::optional<ProbeContext::CallAnswer> ProbeContext::take_call(const std::string& key) {
  auto it = calls_.find(key);
  if (it == calls_.end()) return std::nullopt;
  CallAnswer a{it->second.answer.get(), it->second.deadline, std::move(it->second.library)};
  calls_.erase(it);
  return a;
}

const std::vector<ProbeInfo>& all_probes() {
  static const std::vector<ProbeInfo> probes = {
      {"system", "uname; /etc/os-release; /.dockerenv, /run/.containerenv, /proc/1/cgroup; container environment", probe_system},
      {"pci", "/sys/bus/pci/devices/*/{vendor,device,class,driver,numa_node,*_link_*}; pci.ids", probe_pci},
      {"nvidia_kernel", "/proc/driver/nvidia/version, /sys/module/nvidia/version, /proc/driver/nvidia/gpus/*/information; /dev/nvidia*, /dev/dxg", probe_nvidia_kernel},
      {"nvidia_userspace", "LD_LIBRARY_PATH, /etc/ld.so.cache, default library directories: libcuda.so.1, libnvidia-ml.so.1", probe_nvidia_userspace},
      {"cuda_driver_api", "libcuda.so.1 loaded in a child process: cuInit, cuDriverGetVersion, cuDeviceGet*", probe_cuda_driver_api, nullptr, finish_cuda_driver_api},
      {"topology", "the PCIe path above each GPU and NVSwitch (/sys/devices/pci*/…: every bridge's *_link_* and config, its ACS), iommu_group and its type, local_cpulist; /sys/class/iommu, /proc/cmdline", probe_topology},
      {"nvidia_smi", "nvidia-smi -q -x; where it is absent or fails, NVML (libnvidia-ml.so.1) loaded in a child process", nullptr, start_nvidia_smi, probe_nvidia_smi},
      {"nvlink", "libnvidia-ml.so.1 loaded in a child process: each GPU's NVLinks, their state, version, remote end and error counters", probe_nvlink, nullptr, finish_nvlink},  // after nvidia_smi: its NVML fallback must not wait on a hung NVLink query
      {"services", "the daemons' pid files under /run and their /proc/PID/comm; systemd's cgroups of their units; /usr/bin/nv-fabricmanager, /usr/bin/nvidia-persistenced; /var/lib/dpkg/status", probe_services},
      {"kernel_log", "/dev/kmsg (NVRM Xid lines)", probe_kernel_log},
      {"python", "python3 on PATH, $VIRTUAL_ENV, $CONDA_PREFIX, --python: sys.path from pyvenv.cfg, site.py and .pth files (the interpreter asked, with a deadline, only where they do not settle it), dist-info, egg-info, conda-meta; framework version files; --deep: probes/deep_probe.py", probe_python, start_python},
      {"cuda_toolkits", "/usr/local/cuda*, /opt/nvidia/hpc_sdk, conda environments: version.json, version.txt, dist-info, cuda.h; nvcc --version as a last resort; PATH, CUDA_HOME, CUDA_PATH", probe_cuda_toolkits},
      {"gpu_libraries", "cuDNN, NCCL, cuBLAS, cuFFT, NVRTC, nvJitLink, TensorRT, CUDA runtime: headers, library file names, pip wheels, /etc/ld.so.cache", probe_gpu_libraries},
      {"loader", "ELF dynamic sections (DT_NEEDED, RPATH, RUNPATH) of the frameworks' shared objects, resolved as the dynamic loader would", probe_loader},
      {"rocm", "/opt/rocm*/.info/version, /sys/module/amdgpu/version, KFD topology, librocm_smi64 in a child process, HIP version; HSA_OVERRIDE_GFX_VERSION, HIP_VISIBLE_DEVICES", probe_rocm, nullptr, finish_rocm},
      {"network", "/sys/class/infiniband/*: ports' state, rate, link layer and error counters, the HCA's PCIe path; /sys/module/nvidia_peermem, nv_peer_mem; libnccl-net*.so on LD_LIBRARY_PATH and in ld.so.cache, NCCL_NET_PLUGIN", probe_network},
      {"container_runtime", "/proc/self/mountinfo (driver files mounted by the NVIDIA container toolkit), cuda-compat", probe_container_runtime},
  };
  return probes;
}

const std::vector<IsolatedEntry>& isolated_calls() {
  static const std::vector<IsolatedEntry> calls = {
      kCudaDriverCall,
      kRocmSmiCall,
      kNvmlCall,
      kNvLinkCall,
  };
  return calls;
}

Facts run_probes(const Host& host, const ProbeOptions& opts) {
  ProbeContext ctx(host, opts);
  // Nothing is skipped when the --timeout is spent: reading files takes
  // milliseconds, and what could hang (programs, driver calls) is bounded
  // by the deadline it was started with, each on its own, not in sum.
  const auto& probes = all_probes();
  auto& notes = ctx.facts().notes;
  // Each probe's notes, run step then finish step, in registry order: the
  // order reads as the probes do, wherever the answers came in.
  std::vector<std::vector<Note>> by_probe(probes.size());
  const auto collect = [&](std::size_t i, ProbeFn step) {
    if (!step) return;
    const std::size_t before = notes.size();
    step(ctx);
    std::move(notes.begin() + static_cast<std::ptrdiff_t>(before), notes.end(), std::back_inserter(by_probe[i]));
    notes.resize(before);
  };
  for (std::size_t i = 0; i < probes.size(); ++i) collect(i, probes[i].start);
  for (std::size_t i = 0; i < probes.size(); ++i) collect(i, probes[i].run);
  for (std::size_t i = 0; i < probes.size(); ++i) collect(i, probes[i].finish);
  for (auto& group : by_probe) std::move(group.begin(), group.end(), std::back_inserter(notes));
  return std::move(ctx.facts());
}

}  // namespace gpucheck
