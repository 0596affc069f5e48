#include "rules/verdict_basis.hpp"

#include <stdexcept>

#include "util/word_table.hpp"

namespace gpucheck {

namespace {

constexpr Word<Missing> kMissing[] = {{Missing::error, "error"}, {Missing::warning, "warning"}, {Missing::listed, "listed"}};

constexpr Word<AppliesTo> kApplies[] = {
    {AppliesTo::nvidia_host, "an NVIDIA GPU host"},
    {AppliesTo::amd_host, "an AMD GPU host"},
    {AppliesTo::gpu_host, "any GPU host"},
    {AppliesTo::gpus_asked, "--gpus N"},
    {AppliesTo::kernels_asked, "--kernels"},
    {AppliesTo::precisions_asked, "--require with --kernels"},
};

}  // namespace

std::string_view to_string(Missing m) { return name_of(kMissing, m); }
std::string_view describe(AppliesTo a) { return name_of(kApplies, a); }

const std::vector<BasisRow>& verdict_basis() {
  static const std::vector<BasisRow> rows = {
      {"cuda-driver-api", "unverified-cuda_driver_api",
       "the CUDA driver API: cuInit, the driver's CUDA version, the devices and their compute capability and memory, "
       "how many GPUs a job can use",
       "cuda_driver_api: libcuda.so.1 loaded in a child process with a deadline (cuInit, cuDeviceGetCount, cuDeviceGet*); "
       "no libcuda at all is libcuda-not-found's error, a cuInit error code the matrix's (cuda-init-failed and others)",
       AppliesTo::nvidia_host, Missing::error, Missing::listed,
       "Run nvidia-smi and check the kernel log (dmesg) for NVRM or Xid errors; a hung cuInit usually needs the driver "
       "reloaded or the node rebooted",
       Action::reload_driver},
      {"driver-health", "unverified-nvidia_smi",
       "the driver's view of each GPU: ECC, retired pages, remapped rows, clocks and their event reasons, power, "
       "temperature, NVLink fabric, persistence, MIG",
       "nvidia_smi: nvidia-smi -q -x; where it is absent or fails, NVML (libnvidia-ml.so.1) in a child process with a "
       "deadline: unread only when neither answers",
       AppliesTo::nvidia_host, Missing::error, Missing::error,
       "Run nvidia-smi -q by hand; if it hangs or fails, check dmesg for NVRM or Xid errors and the persistence daemon; "
       "install nvidia-smi (or the container toolkit's utility capability) where it is missing",
       Action::reload_driver},
      {"rocm-smi", "unverified-rocm", "the AMD GPUs as the driver reports them",
       "rocm: librocm_smi64 loaded in a child process with a deadline", AppliesTo::amd_host, Missing::error, Missing::listed,
       "Run rocm-smi by hand and check dmesg for amdgpu errors", Action::reload_driver},
      {"kernel-log", "unverified-kernel_log", "the Xid events since boot, judged by the matrix's Xid catalogue",
       "kernel_log: /dev/kmsg (root, or kernel.dmesg_restrict=0); a container has none", AppliesTo::nvidia_host,
       Missing::warning, Missing::listed,
       "Run gpucheck as root (a Slurm prolog does), or set kernel.dmesg_restrict=0", Action::fix_software},
      {"gpu-count", "unverified-gpu_count", "how many GPUs a job can use, for --gpus N",
       "the CUDA driver API's device count (after CUDA_VISIBLE_DEVICES and the container's GPUs); KFD's GPU nodes; "
       "--level 1: the GPUs the kernel driver lists",
       AppliesTo::gpus_asked, Missing::error, Missing::error,
       "Find why the CUDA driver API did not answer (its own finding or note says); --gpus is not judged without it",
       Action::reload_driver},
      {"timeouts", "unverified-<probe>", "whatever a program or driver call that ran out of time would have told",
       "every probe's programs and driver calls, each with its own deadline inside --timeout", AppliesTo::gpu_host,
       Missing::error, Missing::listed, "Find what hangs (the note names it) or give the run a longer --timeout",
       Action::reload_driver},
      {"kernels", "unverified-kernels", "the kernel checks --kernels asked for",
       "gpucheck kernels: PTX through the CUDA driver API, in a child process with a watchdog", AppliesTo::kernels_asked,
       Missing::error, Missing::error,
       "Run gpucheck kernels to see each check's status and reason; check --kernels needs a GPU the CUDA driver API can use",
       Action::reload_driver},
      {"kernels-precision", "unverified-kernels-<precision>", "a --require precision tested to a result by a kernel check",
       "gpucheck kernels: the precision's check on every GPU", AppliesTo::precisions_asked, Missing::error, Missing::error,
       "Run gpucheck kernels --precision <precision> to see why it did not run", Action::reload_driver},
      // What other sources stand in for, or other rules judge: named, never failed.
      {"pci", "", "the GPUs on the PCI bus, their bound driver and link",
       "pci: /sys/bus/pci/devices (a container shows the host's; WSL2 and sandboxes show none)", AppliesTo::gpu_host,
       Missing::listed, Missing::listed,
       "Nothing: the driver's /proc files, /dev, nvidia-smi and libcuda still make the host a GPU host", Action::none},
      {"kernel-module", "", "the nvidia kernel module's version and the GPUs it lists",
       "nvidia_kernel: /proc/driver/nvidia/version, /proc/driver/nvidia/gpus; /dev/nvidia*",
       AppliesTo::nvidia_host, Missing::listed, Missing::listed,
       "Nothing here: a GPU with no driver bound is gpu-without-driver's error, a GPU the driver lost gpu-missing-from-driver's",
       Action::none},
      {"python", "", "the Python environments, their distributions and framework builds",
       "python: python3 on PATH, $VIRTUAL_ENV, $CONDA_PREFIX, --python (an interpreter named that is not there stops "
       "the run, exit 2); the interpreter asked only where its files do not settle sys.path",
       AppliesTo::gpu_host, Missing::listed, Missing::listed,
       "Nothing here: a hang is a timeout above; a job without Python has no framework to judge", Action::none},
  };
  return rows;
}

const BasisRow& basis_row(std::string_view id) {
  for (const auto& r : verdict_basis())
    if (r.id == id) return r;
  throw std::logic_error("no verdict basis row " + std::string(id));
}

}  // namespace gpucheck
