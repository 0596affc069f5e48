// What an error line states that no other fact holds, as kinds the rules
// test (error.stated): the libraries' own words for a fault, matched
// wherever they stand in the line. error_facts.cpp reads the values.
#include "importers/stated_kinds.hpp"

#include <array>
#include <cctype>

#include "importers/block_util.hpp"
#include "util/strings.hpp"

namespace gpucheck {

namespace {

constexpr std::string_view kCannotOpen = ": cannot open shared object file";
// rocBLAS: "Cannot read …/TensileLibrary.dat: Illegal seek for GPU arch : gfx1032"
constexpr std::string_view kTensileArch = "for GPU arch : ";

// Each marker is the library's own text, lower-cased: a paste may
// lower-case the whole message (OpenBuddy#45).
struct StatedKind {
  std::string_view marker, kind;
};
constexpr std::array kStated{
    // vLLM (_check_if_gpu_supports_dtype), accelerate's mixed precision check
    StatedKind{"bfloat16 is only supported on gpus with compute capability", "bf16-unsupported"},
    StatedKind{"bf16 mixed precision requires pytorch >= 1.10", "bf16-unsupported"},
    // ComfyUI-QwenVL, Triton's "type fp8e4nv not supported in this architecture", Llama 3.1's FP8 note
    StatedKind{"fp8 models require a gpu with compute capability", "fp8-unsupported"},
    StatedKind{"fp8e4nv not supported", "fp8-unsupported"},
    StatedKind{"running the fp8 model requires gpus with compute capability", "fp8-unsupported"},
    // vLLM's check in its early releases (vllm-project/vllm#1284)
    StatedKind{"gpus with compute capability below 7.0 are not supported", "below-vllm-minimum"},
    // the driver's CUDA older than the program's: torch, the CUDA runtime, nvidia-container-cli
    StatedKind{"driver on your system is too old (found version", "driver-too-old"},
    StatedKind{"cudaerrorinsufficientdriver", "driver-too-old"},
    StatedKind{"cuda driver version is insufficient for cuda runtime version", "driver-too-old"},
    StatedKind{"unsatisfied condition: cuda", "driver-too-old"},
    StatedKind{"error 804: forward compatibility was attempted on non supported hw", "forward-compat-refused"},
    StatedKind{"driver/library version mismatch", "nvml-mismatch"},
    StatedKind{"nvrm: api mismatch: the client has the version", "nvrm-api-mismatch"},
    StatedKind{"loaded runtime cudnn library:", "cudnn-mismatch"},
    StatedKind{"no kernel image is available for execution on the device", "no-kernel-image"},
    StatedKind{"hip error: invalid device function", "hip-invalid-device-function"},
    StatedKind{"cuda_home does not exist", "cuda-home-missing"},
    StatedKind{"does not match the version torch was compiled with", "toolkit-differs-from-build"},
    // nvcc fatal: any quotes (a paste's editor may curl them)
    StatedKind{"nvcc fatal   : unsupported gpu architecture", "nvcc-unsupported-arch"},
    StatedKind{"nvcc fatal : unsupported gpu architecture", "nvcc-unsupported-arch"},
    // jax: the CPU-only jaxlib on a host whose GPU it cannot use
    StatedKind{"a cuda-enabled jaxlib is not installed", "jax-no-cuda-backend"},
    StatedKind{"backend 'gpu' failed to initialize", "jax-no-cuda-backend"},
    StatedKind{"torch not compiled with cuda enabled", "torch-cpu-only"},
    StatedKind{"cuda out of memory", "out-of-memory"},
    StatedKind{"outofmemoryerror", "out-of-memory"},
    StatedKind{"cannot re-initialize cuda in forked subprocess", "cuda-after-fork"},
    StatedKind{"to use cuda with multiprocessing, you must use the 'spawn' start method", "cuda-after-fork"},
    StatedKind{"expected all tensors to be on the same device", "tensors-on-two-devices"},
    StatedKind{"undefined symbol: __nvjitlink", "nvjitlink-undefined-symbol"},
    StatedKind{"not defined in file libcublaslt.so.11 with link time reference", "cublaslt-symbol-missing"},
    // more FP8 refusals: torch's _scaled_mm, TensorRT's engine builder
    StatedKind{"_scaled_mm is only supported on cuda devices with compute capability", "fp8-unsupported"},
    StatedKind{"networks with fp8 precision require hardware with fp8 support", "fp8-unsupported"},
    StatedKind{"networks with fp8 q/dq layers require hardware with fp8 support", "fp8-unsupported"},
    StatedKind{"flashattention only supports ampere gpus or newer", "flash-attn2-below-ampere"},
    // JAX's cuDNN check: "Found cuDNN version 8600, but JAX was built against version 8906"
    StatedKind{"but jax was built against version", "cudnn-mismatch"},
    // A compiled extension and the torch it loads into: a C++ symbol of
    // torch (c10::, at::, torch::) missing, however the line wraps, or the
    // extension's own check.
    StatedKind{"symbol: _zn3c10", "extension-built-for-other-torch"},
    StatedKind{"symbol: _zn2at", "extension-built-for-other-torch"},
    StatedKind{"symbol: _zn5torch", "extension-built-for-other-torch"},
    StatedKind{"deepspeed ops were compiled and installed with a different version", "extension-built-for-other-torch"},
    StatedKind{"xformers was built for:", "extension-built-for-other-torch"},
    // SageAttention's, on a GPU that has the architecture it names
    StatedKind{"kernel is not available. make sure you gpus with compute capability", "extension-built-for-other-torch"},
    // bitsandbytes without a native library for torch's CUDA, in its releases' words
    StatedKind{"could not find the bitsandbytes cuda binary", "bitsandbytes-no-cuda-binary"},
    StatedKind{"configured cuda binary not found", "bitsandbytes-no-cuda-binary"},
    StatedKind{"bitsandbytes was compiled without gpu support", "bitsandbytes-no-cuda-binary"},
    StatedKind{"cuda setup failed despite gpu being available", "bitsandbytes-no-cuda-binary"},
    // bitsandbytes below compute capability 7.5: no int8 tensor cores for its matmul
    StatedKind{"only slow 8-bit matmul is supported for your gpu", "bitsandbytes-slow-int8"},
    // jax-cuda12-plugin / -pjrt of another release than jaxlib
    StatedKind{"is not compatible with the installed jaxlib version", "jax-plugin-mismatch"},
    StatedKind{"the plugin is likely built with a later version than the framework", "jax-plugin-mismatch"},
    StatedKind{"mismatched pjrt plugin pjrt api version", "jax-plugin-mismatch"},
    // Docker or Podman without the NVIDIA container toolkit, or its CDI spec
    StatedKind{"unknown or invalid runtime name: nvidia", "container-toolkit-missing"},
    StatedKind{"could not select device driver", "container-toolkit-missing"},
    StatedKind{"unresolvable cdi devices", "cdi-device-unresolvable"},
    // a CUDA image's start-up banner in a container given no GPU
    StatedKind{"the nvidia driver was not detected", "container-without-driver"},
    StatedKind{"gpu access blocked by the operating system", "wsl-gpu-blocked"},
    // cudaErrorSystemNotReady (802): an NVSwitch system's fabric not up
    StatedKind{"system not yet initialized", "system-not-ready"},
    StatedKind{"cudaerrorsystemnotready", "system-not-ready"},
    StatedKind{"cuda_error_system_not_ready", "system-not-ready"},
    // tensorflow-rocm 2.14.0.600's target list, joined by a missing comma
    StatedKind{"supported amdgpu versions are gfx1030gfx1100", "tf-rocm-target-list-joined"},
    // TensorFlow finding no CUDA libraries to load: it registers no GPU
    StatedKind{"cannot dlopen some gpu libraries", "tensorflow-gpu-libraries-missing"},
    // What says the program wanted a GPU: ultralytics' refusal of a CUDA
    // device, ComfyUI's portable build for NVIDIA (it ships a CUDA torch)
    StatedKind{"invalid cuda 'device=", "gpu-expected"},
    StatedKind{"comfyui_windows_portable", "gpu-expected"},
    // bitsandbytes' search for the CUDA runtime, over (before 0.43) with nothing found
    StatedKind{"possible options found for libcudart.so: set()", "cuda-library-not-found"},
    // XLA (JAX, TensorFlow): "The NVIDIA driver's CUDA version is 12.4 which is older than the PTX
    // compiler version (12.6.20)", earlier "… than the ptxas CUDA version (12.5.40)"
    StatedKind{"which is older than the ptx compiler version", "ptxas-newer-than-driver"},
    StatedKind{"which is older than the ptxas cuda version", "ptxas-newer-than-driver"},
};

// ollama's ROCm discovery: "amdgpu [0] gfx1103 is not supported by
// /tmp/ollama…/rocm [gfx1030 gfx1100 …]", later "amdgpu is not supported"
// with gpu_type=gfx1103.
bool ollama_gfx_unsupported(std::string_view t) {
  const auto at = t.find("amdgpu");
  return at != std::string_view::npos && t.find("is not supported", at) != std::string_view::npos && t.find("gfx", at) != std::string_view::npos;
}

// "gfx1103" at the start of `t`, without what follows it.
std::string_view gfx_word(std::string_view t) {
  std::size_t n = 3;
  while (n < t.size() && std::isalnum(static_cast<unsigned char>(t[n]))) ++n;
  return starts_with(t, "gfx") && n > 3 ? t.substr(0, n) : std::string_view{};
}

// pip's "Attempting uninstall: torch" while installing something else: a
// wheel that pins another torch (xformers, vLLM) replaces the one installed.
bool pip_replaces_torch(std::string_view t) { return ends_with(to_lower(trim(t)), "attempting uninstall: torch"); }

// The CUDA library a loader error names: "libcusparse.so.11: cannot open
// shared object file". libcuda and NVML are the driver's, not a library of
// the stack; other rules read those.
std::optional<std::string_view> missing_cuda_library(std::string_view t) {
  const auto at = t.find(kCannotOpen);
  if (at == std::string_view::npos) return std::nullopt;
  auto head = t.substr(0, at);
  const auto start = head.find_last_of(" /'\"`(");
  const auto lib = start == std::string_view::npos ? head : head.substr(start + 1);
  const bool cuda = starts_with(lib, "libcu") || starts_with(lib, "libnvrtc") || starts_with(lib, "libnvJitLink") || starts_with(lib, "libnccl");
  if (!cuda || starts_with(lib, "libcuda.") || lib.find(".so.") == std::string_view::npos) return std::nullopt;
  return lib;
}

// ultralytics' banner: "Ultralytics YOLOv8.1.3 🚀 Python-3.10.11 torch-2.1.0+cpu"
bool ultralytics_cpu_torch(std::string_view t) {
  const auto at = t.find(" torch-");
  if (!starts_with(t, "Ultralytics ") || at == std::string_view::npos) return false;
  auto w = t.substr(at + 7);
  w = w.substr(0, w.find(' '));
  return ends_with(w, "+cpu");
}

// MIG named the pre-R470 way (MIG-GPU-<uuid>/<gi>/<ci>), which current drivers do not know
bool mig_legacy_name_refused(std::string_view t) {
  return t.find("MIG-GPU-") != std::string_view::npos && t.find("unknown device") != std::string_view::npos;
}

}  // namespace

std::optional<std::string_view> gfx_target_refused(std::string_view t) {
  if (const auto at = t.find(kTensileArch); at != std::string_view::npos && t.find("TensileLibrary") != std::string_view::npos)
    if (const auto g = gfx_word(trim(t.substr(at + kTensileArch.size()))); !g.empty()) return g;
  if (ollama_gfx_unsupported(t)) {
    for (std::string_view key : {"gpu_type=", "] "})
      if (const auto at = t.find(key, t.find("amdgpu")); at != std::string_view::npos)
        if (const auto g = gfx_word(t.substr(at + key.size())); !g.empty()) return g;
    return t.substr(0, 0);  // refused, the target not named
  }
  return std::nullopt;
}

std::vector<std::string_view> stated_kinds(std::string_view line) {
  std::vector<std::string_view> kinds;
  const auto add = [&](std::string_view k) { kinds.push_back(k); };
  const auto low = to_lower(line);
  for (auto& k : kStated)
    if (low.find(k.marker) != std::string::npos) add(k.kind);
  if (gfx_target_refused(line)) add("gfx-not-in-build");
  if (ultralytics_cpu_torch(line)) add("torch-cpu-only");
  if (pip_replaces_torch(line)) add("pip-replaced-torch");
  if (missing_cuda_library(line)) add("cuda-library-not-found");
  if (mig_legacy_name_refused(line)) add("mig-legacy-device-name");
  return kinds;
}

}  // namespace gpucheck
