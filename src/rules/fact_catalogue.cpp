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
      {"os.id", K::text, "host", "distribution id from os-release: \"ubuntu\", \"debian\", \"rhel\""},
      {"os.version_id", K::version, "host", "distribution version from os-release: \"22.04\""},
      {"driver.version", K::version, "host", "NVIDIA driver version: the kernel module's, else nvidia-smi's, else the userspace library's"},
      {"driver.kernel_module", K::version, "host", "version of the loaded nvidia kernel module"},
      {"driver.userspace", K::version, "host", "version of the libcuda.so the loader finds (from its file name)"},
      {"driver.branch", K::number, "host", "the driver's major version: 535"},
      {"driver.cuda", K::version, "host", "the newest CUDA the driver supports: cuDriverGetVersion, else nvidia-smi, else the matrix's CUDA releases"},
      {"libcuda.found", K::boolean, "host", "the loader finds a libcuda.so.1"},
      {"libcuda.stub", K::boolean, "host", "the libcuda.so.1 found is a CUDA toolkit's link stub"},
      {"libcuda.compat", K::boolean, "host", "the libcuda.so.1 found is a cuda-compat forward-compatibility copy"},
      {"cuda.init_error", K::text, "host", "cuInit's error name when it failed: \"CUDA_ERROR_NO_DEVICE\""},
      {"gpu.count", K::number, "host", "GPUs seen (PCI, nvidia-smi, CUDA or KFD, whichever saw most)"},
      {"gpu.nvidia_count", K::number, "host", "NVIDIA GPUs seen"},
      {"gpu.models", K::list, "host", "the distinct GPU models of the host (matrix ids, else product names)"},
      {"nvswitch.count", K::number, "host", "NVSwitch devices on the PCI bus"},
      {"fabric_manager.installed", K::boolean, "host", "nvidia-fabricmanager is installed"},
      {"fabric_manager.running", K::boolean, "host", "nvidia-fabricmanager is running"},
      {"fabric_manager.version", K::version, "host", "nvidia-fabricmanager's version"},
      {"toolkit.active", K::version, "host", "version of the CUDA toolkit a build would use"},
      {"toolkit.active_major", K::number, "host", "major of the active CUDA toolkit"},
      {"toolkit.active_min_driver", K::version, "host", "toolkit driver of the active CUDA toolkit's release (matrix)"},
      {"toolkit.active_compat_min_driver", K::version, "host", "oldest driver of the active toolkit's minor-version compatibility (matrix)"},
      {"toolkit.versions", K::list, "host", "versions of every CUDA toolkit installed"},
      {"toolkit.majors", K::list, "host", "the distinct CUDA major versions of the installed toolkits"},
      {"container.runtime", K::text, "host", "the container runtime gpucheck runs under: docker, podman, kubernetes, …"},
      {"container.ngc.framework", K::text, "host", "the NGC image's framework: \"pytorch\""},
      {"container.ngc.release", K::version, "host", "the NGC image's release: \"24.01\""},
      {"container.ngc.cuda", K::version, "host", "the CUDA the NGC image ships"},
      {"container.ngc.min_driver", K::version, "host", "the driver the NGC release needs natively (matrix)"},
      {"container.ngc.forward_compat_ok", K::boolean, "host", "the driver is on a branch the NGC release supports through forward compatibility (matrix)"},
      {"container.toolkit_injected", K::boolean, "host", "the NVIDIA container toolkit mounted the driver in"},
      {"env.*", K::text, "host", "a GPU environment variable as set for gpucheck: env.CUDA_VISIBLE_DEVICES, env.LD_LIBRARY_PATH, …"},
      {"visible.indices", K::list, "host", "the entries of CUDA_VISIBLE_DEVICES"},
      {"visible.out_of_range", K::list, "host", "CUDA_VISIBLE_DEVICES entries that name no GPU of the host"},
      {"visible.names_mig", K::boolean, "host", "CUDA_VISIBLE_DEVICES names MIG devices (MIG-…)"},
      {"gpu.mig_enabled_count", K::number, "host", "GPUs with MIG mode enabled"},
      {"rocm.version", K::version, "host", "the active ROCm install's version"},
      {"rocm.gfx_targets", K::list, "host", "gfx targets of the KFD GPU nodes"},
      {"rocm.release_gfx_targets", K::list, "host", "gfx targets AMD lists as supported by the installed ROCm release (matrix)"},
      {"rocm.release_deprecated_gfx_targets", K::list, "host", "gfx targets AMD lists as deprecated in the installed ROCm release (matrix)"},
      {"xid.codes", K::list, "host", "Xid codes in the kernel log since boot"},
      // gpu
      {"gpu.address", K::text, "gpu", "PCI address, or the report's GPU label"},
      {"gpu.vendor", K::text, "gpu", "\"nvidia\" or \"amd\""},
      {"gpu.name", K::text, "gpu", "product name"},
      {"gpu.pci_id", K::text, "gpu", "vendor:device PCI id, \"10de:2330\""},
      {"gpu.kernel_driver", K::text, "gpu", "kernel driver bound to the PCI device, \"none\" when none is"},
      {"gpu.model", K::text, "gpu", "the matrix's model id"},
      {"gpu.architecture", K::text, "gpu", "architecture name: \"Hopper\""},
      {"gpu.compute_capability", K::version, "gpu", "compute capability: \"9.0\""},
      {"gpu.gfx_target", K::text, "gpu", "AMD gfx target: \"gfx942\""},
      {"gpu.rocm_release_supports_gfx", K::boolean, "gpu", "the installed ROCm release lists the GPU's gfx target as supported or deprecated (matrix); unknown when the release or target is"},
      {"gpu.rocm_release_deprecates_gfx", K::boolean, "gpu", "the installed ROCm release lists the GPU's gfx target as deprecated (matrix); unknown when the release or target is"},
      {"gpu.kernel_checks_passed", K::list, "gpu", "precisions the architecture has whose kernel check passed (check --kernels)"},
      {"gpu.kernel_checks_failed", K::list, "gpu", "precisions the architecture has whose kernel check did not pass, with the status: \"bf16 (failed)\" (check --kernels)"},
      {"gpu.sustained_clock_events", K::list, "gpu", "clock-event (throttle) reasons NVML gave in any sample of the sustained run (kernels --duration)"},
      {"gpu.sustained_rate_low_percent", K::number, "gpu", "the sustained run's lowest interval rate as a percentage of its first, to 0.1 (kernels --duration)"},
      {"gpu.fp32_rate_percent", K::number, "gpu", "the FP32 FMA check's rate as a percentage of the datasheet's FP32 figure, to 0.1 (check --kernels; not for MIG instances)"},
      {"gpu.copy_bandwidth_percent", K::number, "gpu", "the device copy's bandwidth (bytes read plus written) as a percentage of the datasheet's, to 0.1 (check --kernels; not for MIG instances)"},
      {"gpu.host_transfer_percent", K::number, "gpu", "the slower of host-to-device and device-to-host (pinned) as a percentage of what the PCIe link's generation and width allow, to 0.1 (check --kernels; not for MIG instances)"},
      {"gpu.precisions", K::list, "gpu", "precisions the architecture has in hardware (matrix)"},
      {"gpu.data_center", K::boolean, "gpu", "a data-center part: forward compatibility applies (matrix)"},
      {"gpu.memory_gib", K::number, "gpu", "memory in GiB"},
      {"gpu.mig_mode", K::text, "gpu", "MIG mode now: \"Enabled\", \"Disabled\""},
      {"gpu.ecc_uncorrected_volatile", K::number, "gpu", "uncorrected ECC errors since the driver loaded"},
      {"gpu.ecc_uncorrected_aggregate", K::number, "gpu", "uncorrected ECC errors over the GPU's life"},
      {"gpu.retired_pages_pending", K::boolean, "gpu", "a page retirement waits for a reset"},
      {"gpu.remapped_rows_pending", K::boolean, "gpu", "a row remap waits for a reset"},
      {"gpu.remapped_rows_failure", K::boolean, "gpu", "a row remap failed"},
      {"gpu.clock_events", K::list, "gpu", "active clock event (throttle) reasons: \"hw_slowdown\", \"sw_thermal_slowdown\", …"},
      {"gpu.pcie_gen", K::number, "gpu", "PCIe generation of the link now"},
      {"gpu.pcie_gen_max", K::number, "gpu", "highest PCIe generation GPU and slot allow"},
      {"gpu.pcie_width", K::number, "gpu", "PCIe lanes of the link now"},
      {"gpu.pcie_width_max", K::number, "gpu", "most PCIe lanes GPU and slot allow"},
      {"gpu.fabric_state", K::text, "gpu", "NVLink fabric state: \"Completed\", \"In Progress\", \"Not Started\""},
      {"gpu.fabric_status", K::text, "gpu", "NVLink fabric status: \"Success\" or an error"},
      // env
      {"python.interpreter", K::text, "env", "the interpreter's path"},
      {"python.version", K::version, "env", "the interpreter's version"},
      {"python.unmet_pins", K::list, "env", "requirements a distribution pins that what is installed does not meet"},
      {"python.nvidia_cuda_majors", K::list, "env", "CUDA majors of the nvidia-*-cuNN wheels installed"},
      {"python.shadowed_libraries", K::list, "env", "GPU libraries a framework will load from outside its own package while it ships a copy"},
      {"python.missing_libraries", K::list, "env", "GPU libraries a framework needs that the loader would not find"},
      // framework
      {"framework.name", K::text, "framework", "distribution name: \"torch\", \"tensorflow\", \"jaxlib\", \"flash-attn\", …"},
      {"framework.version", K::version, "framework", "installed version, local tag included: \"2.1.0+cu121\""},
      {"framework.variant", K::text, "framework", "build variant: \"cu121\", \"rocm6.0\", \"cpu\""},
      {"framework.cuda", K::version, "framework", "CUDA it was built for"},
      {"framework.cuda_major", K::number, "framework", "major of the CUDA it was built for"},
      {"framework.hip", K::version, "framework", "ROCm/HIP it was built for"},
      {"framework.cpu_only", K::boolean, "framework", "built without CUDA and without ROCm"},
      {"framework.known", K::boolean, "framework", "the matrix knows this build"},
      {"framework.arch_list", K::list, "framework", "compute capabilities it carries SASS for (matrix, or the deep probe)"},
      {"framework.arch_min", K::version, "framework", "oldest compute capability in its arch list"},
      {"framework.arch_max", K::version, "framework", "newest compute capability in its arch list"},
      {"framework.ptx", K::version, "framework", "compute capability its PTX is for, when it embeds PTX"},
      {"framework.min_compute_capability", K::version, "framework", "oldest compute capability the library supports (matrix)"},
      {"framework.max_compute_capability", K::version, "framework", "newest compute capability the library supports (matrix)"},
      {"framework.cuda_min_driver", K::version, "framework", "toolkit driver of the CUDA it was built for (matrix)"},
      {"framework.driver_cuda_floor", K::version, "framework", "oldest driver CUDA that runs the build: \"12.0\" for a cu121 build (minor-version compatibility), the build's own CUDA before CUDA 11 (matrix)"},
      {"framework.cuda_compat_min_driver", K::version, "framework", "oldest driver of that CUDA major's minor-version compatibility (matrix)"},
      {"framework.cuda_min_compute_capability", K::version, "framework", "oldest compute capability the CUDA major it was built for supports (matrix)"},
      {"framework.gfx_targets", K::list, "framework", "the gfx targets a ROCm build carries code for (matrix)"},
      {"framework.cuda_available", K::boolean, "framework", "the framework says CUDA is available (--deep)"},
      {"framework.tf32_matmul", K::boolean, "framework", "torch.backends.cuda.matmul.allow_tf32 (--deep)"},
      {"framework.float32_matmul_precision", K::text, "framework", "torch.get_float32_matmul_precision() (--deep)"},
      {"framework.fp32_matmul_looks_tf32", K::boolean, "framework", "an FP32 matmul on the GPU had TF32's error, not FP32's (--deep)"},
      // framework_gpu
      {"build.runs_on_gpu", K::boolean, "framework_gpu", "the build has SASS for this GPU's architecture, or PTX the driver can compile for it"},
      {"build.has_sass", K::boolean, "framework_gpu", "the build has SASS that runs on this GPU (same major, minor not above)"},
      {"build.has_gfx_target", K::boolean, "framework_gpu", "a ROCm build carries code for this GPU's gfx target (matrix)"},
      {"build.first_for_gpu", K::text, "framework_gpu", "the oldest build of the framework whose code runs on this GPU: \"torch 2.7 cu128\"; \"none\" when no build in the matrix does (matrix)"},
      {"build.last_for_gpu", K::text, "framework_gpu", "the newest build of the framework whose code runs on this GPU (matrix)"},
  };
  return specs;
}

const FactSpec* find_fact_spec(std::string_view name) {
  const auto& all = fact_catalogue();
  for (auto& s : all)
    if (name == s.name) return &s;
  if (starts_with(name, "env.") && name.size() > 4) return &*std::find_if(all.begin(), all.end(), [](auto& s) {
    return std::string_view(s.name) == "env.*";
  });
  return nullptr;
}

namespace {
constexpr const char* kScopes[] = {"host", "gpu", "env", "framework", "framework_gpu"};
}

bool known_scope(std::string_view scope) {
  return std::find(std::begin(kScopes), std::end(kScopes), scope) != std::end(kScopes);
}

bool scope_includes(std::string_view subject, std::string_view fact) {
  if (fact == "host" || fact == subject) return true;
  if (subject == "framework") return fact == "env";
  if (subject == "framework_gpu") return fact == "env" || fact == "framework" || fact == "gpu";
  return false;
}

}  // namespace gpucheck
