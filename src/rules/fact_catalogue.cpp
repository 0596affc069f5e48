#include "rules/fact_catalogue.hpp"

#include <algorithm>

#include "util/strings.hpp"

namespace gpucheck {

namespace {
using K = FactKind;
}  // namespace

const std::vector<FactSpec>& fact_catalogue() {
  static const std::vector<FactSpec> specs = {
      // host
      {"system.uptime_days", K::number, Scope::host, "days since boot, from /proc/uptime"},
      {"os.id", K::text, Scope::host, "distribution id from os-release: \"ubuntu\", \"debian\", \"rhel\""},
      {"os.version_id", K::version, Scope::host, "distribution version from os-release: \"22.04\""},
      {"driver.version", K::version, Scope::host, "NVIDIA driver version: the kernel module's, else nvidia-smi's, else the userspace library's"},
      {"driver.kernel_module", K::version, Scope::host, "version of the loaded nvidia kernel module"},
      {"driver.userspace", K::version, Scope::host, "version of the libcuda.so the loader finds (from its file name)"},
      {"driver.branch", K::number, Scope::host, "the driver's major version: 535"},
      {"driver.branch_kind", K::text, Scope::host, "the matrix's kind of that branch, from NVIDIA's lifecycle: new feature, production, long-term support"},
      {"driver.branch_end_of_life", K::text, Scope::host, "the month NVIDIA ends the branch's support: 2026-06"},
      {"driver.branch_past_end_of_life", K::boolean, Scope::host, "the day judged on (GPUCHECK_TODAY, else the clock) is after the branch's end-of-life month"},
      {"driver.supported_branches", K::list, Scope::host, "production and long-term support branches still supported on the day judged on: R580 (long-term support, to 2028-06)"},
      {"driver.cuda", K::version, Scope::host, "the newest CUDA the driver supports: cuDriverGetVersion, else nvidia-smi, else the matrix's CUDA releases"},
      {"libcuda.found", K::boolean, Scope::host, "the loader finds a libcuda.so.1"},
      {"libcuda.stub", K::boolean, Scope::host, "the libcuda.so.1 found is a CUDA toolkit's link stub"},
      {"libcuda.compat", K::boolean, Scope::host, "the libcuda.so.1 found is a cuda-compat forward-compatibility copy"},
      {"cuda.init_error", K::text, Scope::host, "cuInit's error name when it failed: \"CUDA_ERROR_NO_DEVICE\""},
      {"gpu.count", K::number, Scope::host, "GPUs seen by any source (PCI, the kernel driver, nvidia-smi, CUDA or KFD), each GPU once"},
      {"gpu.usable_count", K::number, Scope::host, "GPUs a job can use: the CUDA driver API's devices (after CUDA_VISIBLE_DEVICES and the container's assignment) and the KFD topology's; a report's GPUs; unknown when the CUDA driver API did not answer"},
      {"gpu.missing_count", K::number, Scope::host, "GPUs on the PCI bus, bound to nvidia, that a layer which answered does not list (gpu.missing_from not empty)"},
      {"gpu.hidden_cause", K::text, Scope::host, "why no GPU is usable, when none is: NVIDIA_VISIBLE_DEVICES, CUDA_VISIBLE_DEVICES, a container without /dev/nvidiaN, cuInit's error, an empty PCI bus"},
      {"driver.present", K::boolean, Scope::host, "the NVIDIA driver is here: its kernel module, /dev/nvidia*, a libcuda.so.1 that is not a stub, or nvidia-smi"},
      {"gpu.nvidia_count", K::number, Scope::host, "NVIDIA GPUs seen"},
      {"gpu.models", K::list, Scope::host, "the distinct GPU models of the host (matrix ids, else product names)"},
      {"nvswitch.count", K::number, Scope::host, "NVSwitch devices on the PCI bus"},
      {"fabric_manager.installed", K::boolean, Scope::host, "nvidia-fabricmanager is installed"},
      {"fabric_manager.running", K::boolean, Scope::host, "nvidia-fabricmanager is running"},
      {"fabric_manager.version", K::version, Scope::host, "nvidia-fabricmanager's version"},
      {"toolkit.active", K::version, Scope::host, "version of the CUDA toolkit a build would use"},
      {"toolkit.active_major", K::number, Scope::host, "major of the active CUDA toolkit"},
      {"toolkit.active_min_driver", K::version, Scope::host, "toolkit driver of the active CUDA toolkit's release (matrix)"},
      {"toolkit.active_compat_min_driver", K::version, Scope::host, "oldest driver of the active toolkit's minor-version compatibility (matrix)"},
      {"toolkit.versions", K::list, Scope::host, "versions of every CUDA toolkit installed"},
      {"toolkit.majors", K::list, Scope::host, "the distinct CUDA major versions of the installed toolkits"},
      {"container.runtime", K::text, Scope::host, "the container runtime gpucheck runs under: docker, podman, kubernetes, …"},
      {"container.ngc.framework", K::text, Scope::host, "the NGC image's framework: \"pytorch\""},
      {"container.ngc.release", K::version, Scope::host, "the NGC image's release: \"24.01\""},
      {"container.ngc.cuda", K::version, Scope::host, "the CUDA the NGC image ships"},
      {"container.ngc.min_driver", K::version, Scope::host, "the driver the NGC release needs natively (matrix)"},
      {"container.ngc.forward_compat_ok", K::boolean, Scope::host, "the driver is on a branch the NGC release supports through forward compatibility (matrix)"},
      {"container.toolkit_injected", K::boolean, Scope::host, "the NVIDIA container toolkit mounted the driver in"},
      {"container.require_unmet", K::text, Scope::host, "the image's NVIDIA_REQUIRE_* that the host does not meet, as the NVIDIA container toolkit judges it at start: the variable, the first failed condition and why"},
      {"libcuda.compat_entry", K::text, Scope::host, "what put a cuda-compat libcuda first for the loader: an LD_LIBRARY_PATH entry or an ld.so.conf file, with the directory"},
      {"env.*", K::text, Scope::host, "a GPU environment variable as set for gpucheck: env.CUDA_VISIBLE_DEVICES, env.LD_LIBRARY_PATH, …"},
      {"visible.indices", K::list, Scope::host, "the entries of CUDA_VISIBLE_DEVICES"},
      {"visible.out_of_range", K::list, Scope::host, "CUDA_VISIBLE_DEVICES entries that name no GPU of the host"},
      {"visible.names_mig", K::boolean, Scope::host, "CUDA_VISIBLE_DEVICES names MIG devices (MIG-…)"},
      {"visible.mig_count", K::number, Scope::host, "how many MIG devices (MIG-…) CUDA_VISIBLE_DEVICES names"},
      {"gpu.mig_enabled_count", K::number, Scope::host, "GPUs with MIG mode enabled"},
      {"rocm.version", K::version, Scope::host, "the active ROCm install's version"},
      {"rocm.gfx_targets", K::list, Scope::host, "gfx targets of the KFD GPU nodes"},
      {"rocm.release_gfx_targets", K::list, Scope::host, "gfx targets AMD lists as supported by the installed ROCm release (matrix)"},
      {"rocm.release_deprecated_gfx_targets", K::list, Scope::host, "gfx targets AMD lists as deprecated in the installed ROCm release (matrix)"},
      {"rocm.release_os", K::list, Scope::host, "the Linux distributions AMD lists for the installed ROCm release (matrix): \"ubuntu 24.04\", \"ol 9\""},
      {"rocm.release_supports_os", K::boolean, Scope::host, "the host's os-release ID and VERSION_ID are among them; absent when the matrix lists none for the release"},
      {"xid.codes", K::list, Scope::host, "Xid codes in the kernel log since boot"},
      {"xid.*.count", K::number, Scope::host, "how often an Xid is in the kernel log since boot: xid.79.count"},
      {"xid.*.gpus", K::text, Scope::host, "the GPUs an Xid named: xid.79.gpus, \"2 GPUs, 0000:{18,2a}:00.0\""},
      {"xid.154.recovery", K::list, Scope::host, "the recovery actions Xid 154 named: \"GPU Reset Required\", \"Node Reboot Required\""},
      {"error.stated", K::list, Scope::host, "what a pasted error message states (check --from, explain): \"bf16-unsupported\", \"fp8-unsupported\", \"below-vllm-minimum\", \"driver-too-old\", \"forward-compat-refused\", \"nvml-mismatch\", \"nvrm-api-mismatch\", \"cudnn-mismatch\", \"no-kernel-image\", \"hip-invalid-device-function\", \"cuda-home-missing\", \"toolkit-differs-from-build\", \"nvcc-unsupported-arch\", \"jax-no-cuda-backend\", \"torch-cpu-only\", \"out-of-memory\", \"cuda-after-fork\", \"tensors-on-two-devices\", \"nvjitlink-undefined-symbol\", \"cublaslt-symbol-missing\", \"flash-attn2-below-ampere\", \"extension-built-for-other-torch\", \"bitsandbytes-no-cuda-binary\", \"jax-plugin-mismatch\", \"container-toolkit-missing\", \"cdi-device-unresolvable\", \"container-without-driver\", \"wsl-gpu-blocked\", \"system-not-ready\", \"tf-rocm-target-list-joined\", \"cuda-library-not-found\", \"mig-legacy-device-name\", \"gfx-not-in-build\", \"pip-replaced-torch\", \"tensorflow-gpu-libraries-missing\", \"gpu-expected\", \"ptxas-newer-than-driver\", \"bitsandbytes-slow-int8\""},
      // gpu
      // the links between GPUs and nodes (fact_view_links.cpp, docs/topology.md)
      {"p2p.switch_ports", K::number, Scope::host, "PCIe switch ports on a peer-to-peer path: below a switch that has two or more GPUs or NICs under it"},
      {"p2p.acs_redirect", K::list, Scope::host, "those ports whose ACS sends peer-to-peer requests or completions up to the root complex (ReqRedir, CmpltRedir, EgressCtrl), one item a switch with the devices below it; absent while a port could not be read"},
      {"p2p.acs_unread", K::list, Scope::host, "those ports whose ACS could not be read: the kernel shows the extended configuration space to root only"},
      {"p2p.access_missing_nvlink", K::list, Scope::host, "pairs of GPUs joined by NVLink (directly or through NVSwitches) whose memory the driver grants no peer access: the kernel checks' cuDeviceCanAccessPeer (check --kernels), or a pasted nvidia-smi topo -p2p r, w or n beside a pasted topo -m: \"GPU 0 -> GPU 3 (NV18; topo -p2p r: NS)\"; absent where no such pair was looked at"},
      {"p2p.slow_pairs", K::list, Scope::host, "pairs of GPUs a pasted p2pBandwidthLatencyTest or nvbandwidth matrix (peer access on, one direction), or the kernel checks' peer copies not rated against a link, show below half of that matrix's median rate: \"GPU 0 -> 3: 8.1 GB/s (median 26.3)\""},
      {"nccl_tests.wrong_values", K::number, Scope::host, "values a pasted nccl-tests run's own validation found wrong: its \"Out of bounds values\" count or its #wrong columns added up, the largest of the runs that validated"},
      {"p2p.slower_than_staged", K::list, Scope::host, "pairs of GPUs whose peer-to-peer copies a pasted p2pBandwidthLatencyTest shows below 80% of the same pair's copies staged through host memory (P2P=Disabled): \"GPU 0 -> 1: 9.9 GB/s (20.1 staged)\""},
      {"iommu.translating", K::boolean, Scope::host, "the IOMMU translates the GPUs' DMA: an iommu_group of type DMA or DMA-FQ; false for identity (passthrough) or no IOMMU unit"},
      {"iommu.mode", K::text, Scope::host, "the IOMMU in words: \"translated: iommu_group type DMA-FQ\", \"not translated: iommu_group type identity\", \"off: no IOMMU unit\""},
      {"iommu.cmdline", K::list, Scope::host, "the kernel command line's IOMMU parameters: intel_iommu=on, iommu=pt, …"},
      {"pcie.degraded_links", K::list, Scope::host, "PCIe links above a GPU or NIC (root port to switch) trained narrower than both ends can, with what is below them"},
      {"nvlink.active_most", K::number, Scope::host, "the most active NVLinks any GPU of the node has (NVML)"},
      {"rdma.devices", K::number, Scope::host, "RDMA devices (InfiniBand or RoCE HCAs) in /sys/class/infiniband"},
      {"rdma.active_ports", K::number, Scope::host, "ports of the InfiniBand and RoCE HCAs in state ACTIVE (EFA's are efa.devices')"},
      {"rdma.rail_ports_down", K::list, Scope::host, "ports not ACTIVE on a GPU's rail (an HCA below a PCIe switch with a GPU, of the model found so beside the most GPUs) while ports of the same HCA model and link layer are ACTIVE, or trained (LinkUp) and never made ACTIVE"},
      {"rdma.ports_down", K::list, Scope::host, "the same on other HCAs (front-end or storage networks, or paths not known)"},
      {"rdma.slow_ports", K::list, Scope::host, "ACTIVE ports at a lower rate than the fastest ACTIVE port of the same HCA model and link layer"},
      {"gpudirect_rdma.loaded", K::boolean, Scope::host, "GPUDirect RDMA's kernel module (nvidia_peermem, or the older nv_peer_mem) is loaded; present where RDMA devices are"},
      {"gpudirect_rdma.module", K::text, Scope::host, "which of the two is loaded"},
      {"nccl.p2p_disabled", K::boolean, Scope::host, "NCCL_P2P_DISABLE is set to a number other than 0 (NCCL reads it as an integer)"},
      {"nccl.ib_disabled", K::boolean, Scope::host, "NCCL_IB_DISABLE is set to a number other than 0"},
      {"efa.devices", K::number, Scope::host, "RDMA devices bound to AWS's efa driver (Elastic Fabric Adapter); left out of every rdma.* fact"},
      {"nccl.net_plugin_found", K::boolean, Scope::host, "a net plugin NCCL would load was found (NCCL_NET_PLUGIN, else libnccl-net.so, as the loader finds it); probed hosts only"},
      {"nccl.net_plugin", K::text, Scope::host, "the NCCL net plugin NCCL would load (NCCL_NET_PLUGIN, else libnccl-net.so), as the loader finds it"},
      {"driver.kernel_module_flavor", K::text, Scope::host, "the NVIDIA kernel module's flavor: \"open\" or \"proprietary\""},
      {"gpu.nvlink_links", K::number, Scope::gpu, "NVLinks NVML knows for this GPU (none: the fact is absent)"},
      {"gpu.nvlink_active", K::number, Scope::gpu, "of them, those active"},
      {"gpu.nvlink_inactive", K::list, Scope::gpu, "the inactive links: \"link 3\""},
      {"gpu.nvlink_errors", K::list, Scope::gpu, "links whose data-link error counters (replay, recovery, CRC flit, CRC data) are not zero, with the counts"},
      {"gpu.numa_node", K::number, Scope::gpu, "the GPU's NUMA node (sysfs numa_node)"},
      {"gpu.nearest_nic", K::text, Scope::gpu, "the RDMA device with an active port that shares the deepest PCIe bridge with the GPU, and how near"},
      {"gpu.nic_on_numa_node", K::boolean, Scope::gpu, "an RDMA device with an active port is on the GPU's NUMA node"},
      {"gpu.address", K::text, Scope::gpu, "PCI address, or the report's GPU label"},
      {"gpu.vendor", K::text, Scope::gpu, "\"nvidia\" or \"amd\""},
      {"error.out_of_memory", K::text, Scope::host, "a pasted out-of-memory error in words: what it asked for and found free, and what the weights of a model the paste names take against the GPU's memory, with the `gpucheck fit` command that sizes it (present whenever error.stated holds \"out-of-memory\")"},
      {"gpu.name", K::text, Scope::gpu, "product name"},
      {"gpu.pci_id", K::text, Scope::gpu, "vendor:device PCI id, \"10de:2330\""},
      {"gpu.kernel_driver", K::text, Scope::gpu, "kernel driver bound to the PCI device, \"none\" when none is"},
      {"gpu.model", K::text, Scope::gpu, "the matrix's model id"},
      {"gpu.architecture", K::text, Scope::gpu, "architecture name: \"Hopper\""},
      {"gpu.compute_capability", K::version, Scope::gpu, "compute capability: \"9.0\""},
      {"gpu.gfx_target", K::text, Scope::gpu, "AMD gfx target: \"gfx942\""},
      {"gpu.rocm_release_supports_gfx", K::boolean, Scope::gpu, "the installed ROCm release lists the GPU's gfx target as supported or deprecated (matrix); unknown when the release or target is"},
      {"gpu.rocm_release_deprecates_gfx", K::boolean, Scope::gpu, "the installed ROCm release lists the GPU's gfx target as deprecated (matrix); unknown when the release or target is"},
      {"gpu.kernel_checks_passed", K::list, Scope::gpu, "precisions the architecture has whose kernel check passed (check --kernels)"},
      {"gpu.kernel_checks_failed", K::list, Scope::gpu, "precisions the architecture has whose kernel check did not pass, with the status: \"bf16 (failed)\" (check --kernels)"},
      {"gpu.sustained_clock_events", K::list, Scope::gpu, "clock-event (throttle) reasons NVML gave in any sample of the sustained run (kernels --duration)"},
      {"gpu.sustained_rate_low_percent", K::number, Scope::gpu, "the sustained run's lowest interval rate as a percentage of its first, to 0.1 (kernels --duration)"},
      {"gpu.fp32_rate_percent", K::number, Scope::gpu, "the FP32 FMA check's rate as a percentage of the datasheet's FP32 figure, to 0.1 (check --kernels; not for MIG instances)"},
      {"gpu.copy_bandwidth_percent", K::number, Scope::gpu, "the device copy's bandwidth (bytes read plus written) as a percentage of the datasheet's, to 0.1 (check --kernels; not for MIG instances)"},
      {"gpu.host_transfer_percent", K::number, Scope::gpu, "the slower of host-to-device and device-to-host (pinned) as a percentage of what the PCIe link's generation and width allow, to 0.1 (check --kernels; not for MIG instances)"},
      {"gpu.peer_copies_wrong", K::list, Scope::gpu, "the GPUs a peer copy from this one delivered wrong bytes to, every call succeeding, with the words wrong: \"GPU 0000:2a:00.0 (3 of 32768 words)\" (check --kernels)"},
      {"gpu.peer_copies_failed", K::list, Scope::gpu, "the GPUs a peer copy from this one failed, hung or crashed on, with the status and why (check --kernels)"},
      {"gpu.peer_copy_percent", K::number, Scope::gpu, "the slowest judged peer copy from this GPU as a percentage of what the link between the two carries one way (NVLink's datasheet share, or a shared PCIe switch's link), to 0.1 (check --kernels)"},
      {"gpu.peer_copy_slowest_to", K::text, Scope::gpu, "the GPU the slowest judged peer copy from this one went to (check --kernels)"},
      {"gpu.precisions", K::list, Scope::gpu, "precisions the architecture has in hardware (matrix)"},
      {"gpu.data_center", K::boolean, Scope::gpu, "a data-center part: forward compatibility applies (matrix)"},
      {"gpu.memory_gib", K::number, Scope::gpu, "memory as the GPU reports it, in GiB (2^30 bytes), printed to 0.1: 79.6 for an H100 80GB"},
      {"gpu.memory_sold_gb", K::number, Scope::gpu, "memory as the GPU is sold, in GB: the matrix's datasheet figure for its model (80 for an H100 80GB), when what it reports is within 10% of that (not a MIG slice or vGPU), else what it reports in decimal GB; absent when no source reported its size"},
      {"gpu.seen_by", K::list, Scope::gpu, "the sources that list the GPU: \"PCI\", \"driver\" (/proc/driver/nvidia/gpus), \"nvidia-smi\" or \"NVML\", \"cuda\", \"KFD\""},
      {"gpu.missing_from", K::list, Scope::gpu, "the layers that answered and do not list a GPU the PCI bus shows bound to nvidia, with no container, Slurm job, CUDA_VISIBLE_DEVICES, MIG or exclusion to explain it: \"driver\", \"nvidia-smi\", \"cuda\""},
      {"gpu.datasheet_memory_gib", K::number, Scope::gpu, "the model's memory from its datasheet (matrix): the size it is sold as, \"80\" for an H100 80GB"},
      {"gpu.mig_mode", K::text, Scope::gpu, "MIG mode now: \"Enabled\", \"Disabled\""},
      {"gpu.ecc_uncorrected_volatile", K::number, Scope::gpu, "uncorrected ECC errors since the driver loaded"},
      {"gpu.ecc_uncorrected_aggregate", K::number, Scope::gpu, "uncorrected ECC errors over the GPU's life"},
      {"gpu.retired_pages_pending", K::boolean, Scope::gpu, "a page retirement waits for a reset"},
      {"gpu.remapped_rows_pending", K::boolean, Scope::gpu, "a row remap waits for a reset"},
      {"gpu.remapped_rows_failure", K::boolean, Scope::gpu, "a row remap failed"},
      {"gpu.clock_events", K::list, Scope::gpu, "active clock event (throttle) reasons: \"hw_slowdown\", \"sw_thermal_slowdown\", …"},
      {"gpu.pcie_gen", K::number, Scope::gpu, "PCIe generation of the link now"},
      {"gpu.pcie_gen_max", K::number, Scope::gpu, "highest PCIe generation GPU and slot allow"},
      {"gpu.pcie_width", K::number, Scope::gpu, "PCIe lanes of the link now"},
      {"gpu.pcie_width_max", K::number, Scope::gpu, "most PCIe lanes GPU and slot allow"},
      {"gpu.fabric_state", K::text, Scope::gpu, "NVLink fabric state: \"Completed\", \"In Progress\", \"Not Started\""},
      {"gpu.fabric_status", K::text, Scope::gpu, "NVLink fabric status: \"Success\" or an error"},
      // env
      {"python.interpreter", K::text, Scope::env, "the interpreter's path"},
      {"python.version", K::version, Scope::env, "the interpreter's version"},
      {"python.unmet_pins", K::list, Scope::env, "requirements a distribution pins that what is installed does not meet"},
      {"python.nvidia_cuda_majors", K::list, Scope::env, "CUDA majors of the nvidia-*-cuNN wheels installed"},
      {"python.shadowed_libraries", K::list, Scope::env, "GPU libraries a framework will load from outside its own package while it ships a copy"},
      {"python.missing_libraries", K::list, Scope::env, "GPU libraries a framework needs that the loader would not find"},
      // framework
      {"framework.name", K::text, Scope::framework, "distribution name: \"torch\", \"tensorflow\", \"jaxlib\", \"flash-attn\", …"},
      {"framework.version", K::version, Scope::framework, "installed version, local tag included: \"2.1.0+cu121\""},
      {"framework.variant", K::text, Scope::framework, "build variant: \"cu121\", \"rocm6.0\", \"cpu\""},
      {"framework.cuda", K::version, Scope::framework, "CUDA it was built for"},
      {"framework.cuda_major", K::number, Scope::framework, "major of the CUDA it was built for"},
      {"framework.hip", K::version, Scope::framework, "ROCm/HIP it was built for"},
      {"framework.cpu_only", K::boolean, Scope::framework, "built without CUDA and without ROCm"},
      {"framework.known", K::boolean, Scope::framework, "the matrix knows this build"},
      {"framework.arch_list", K::list, Scope::framework, "compute capabilities it carries SASS for (matrix, or the deep probe)"},
      {"framework.arch_min", K::version, Scope::framework, "oldest compute capability in its arch list"},
      {"framework.arch_max", K::version, Scope::framework, "newest compute capability in its arch list"},
      {"framework.ptx", K::version, Scope::framework, "compute capability its PTX is for, when it embeds PTX"},
      {"framework.min_compute_capability", K::version, Scope::framework, "oldest compute capability the library supports (matrix)"},
      {"framework.max_compute_capability", K::version, Scope::framework, "newest compute capability the library supports (matrix)"},
      {"framework.cuda_min_driver", K::version, Scope::framework, "toolkit driver of the CUDA it was built for (matrix)"},
      {"framework.driver_cuda_floor", K::version, Scope::framework, "oldest driver CUDA that runs the build: \"12.0\" for a cu121 build (minor-version compatibility), the build's own CUDA before CUDA 11 (matrix)"},
      {"framework.cuda_compat_min_driver", K::version, Scope::framework, "oldest driver of that CUDA major's minor-version compatibility (matrix)"},
      {"framework.cuda_min_compute_capability", K::version, Scope::framework, "oldest compute capability the CUDA major it was built for supports (matrix)"},
      {"framework.cudnn_built", K::version, Scope::framework, "cuDNN major.minor it was built with (its build files, or the matrix)"},
      {"framework.cudnn_built_major", K::number, Scope::framework, "major of the cuDNN it was built with"},
      {"framework.cudnn_runtime", K::version, Scope::framework, "cuDNN major.minor it will load: as loaded (--deep), else the environment's nvidia-cudnn-cuNN wheel"},
      {"framework.cudnn_runtime_major", K::number, Scope::framework, "major of the cuDNN it will load"},
      {"framework.gfx_targets", K::list, Scope::framework, "the gfx targets a ROCm build carries code for (matrix)"},
      {"framework.cuda_available", K::boolean, Scope::framework, "the framework says CUDA is available (--deep)"},
      {"framework.tf32_matmul", K::boolean, Scope::framework, "torch.backends.cuda.matmul.allow_tf32 (--deep)"},
      {"framework.float32_matmul_precision", K::text, Scope::framework, "torch.get_float32_matmul_precision() (--deep)"},
      {"framework.fp32_matmul_looks_tf32", K::boolean, Scope::framework, "an FP32 matmul on the GPU had TF32's error, not FP32's (--deep)"},
      // framework_gpu
      {"build.runs_on_gpu", K::boolean, Scope::framework_gpu, "the build has SASS for this GPU's architecture, or PTX the driver can compile for it"},
      {"build.has_sass", K::boolean, Scope::framework_gpu, "the build has SASS that runs on this GPU (same major, minor not above)"},
      {"build.has_gfx_target", K::boolean, Scope::framework_gpu, "a ROCm build carries code for this GPU's gfx target (matrix)"},
      {"build.first_for_gpu", K::text, Scope::framework_gpu, "the oldest build of the framework whose code runs on this GPU: \"torch 2.7 cu128\"; \"none\" when no build in the matrix does (matrix)"},
      {"build.last_for_gpu", K::text, Scope::framework_gpu, "the newest build of the framework whose code runs on this GPU (matrix)"},
  };
  return specs;
}

const FactSpec* find_fact_spec(std::string_view name) {
  const auto& all = fact_catalogue();
  for (auto& s : all)
    if (name == s.name) return &s;
  // A pattern's "*" stands for one name of any length: env.*, xid.*.count.
  for (auto& s : all) {
    const std::string_view pattern = s.name;
    const auto star = pattern.find('*');
    if (star == std::string_view::npos) continue;
    const auto head = pattern.substr(0, star), tail = pattern.substr(star + 1);
    if (name.size() > head.size() + tail.size() && starts_with(name, head) && name.substr(name.size() - tail.size()) == tail &&
        name.substr(head.size(), name.size() - head.size() - tail.size()).find('.') == std::string_view::npos)
      return &s;
  }
  return nullptr;
}

std::string fact_noun(std::string_view name) {
  const FactSpec* spec = find_fact_spec(name);
  if (!spec) return std::string(name);
  // The meaning up to its first example or aside: "compute capability: \"9.0\"".
  std::string_view m = spec->meaning;
  m = m.substr(0, std::min({m.find(':'), m.find(" ("), m.find(';'), m.size()}));
  return std::string(trim(m));
}

}  // namespace gpucheck
