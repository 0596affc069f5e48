#include "importers/error_facts.hpp"

#include <array>
#include <cctype>

#include "importers/block_util.hpp"
#include "importers/stated_kinds.hpp"
#include "matrix/platform_knowledge.hpp"
#include "parse/kernel_log.hpp"
#include "util/strings.hpp"
#include "util/version.hpp"

namespace gpucheck {

namespace {

constexpr std::string_view kTooOld = "driver on your system is too old (found version ";
constexpr std::string_view kNotCompatible = " is not compatible with the current PyTorch installation";
constexpr std::string_view kSupports = "The current PyTorch install supports CUDA capabilities ";
constexpr std::string_view kHasCc = " has compute capability ";
constexpr std::string_view kFoundGpu = " which is of cuda capability ";
constexpr std::string_view kCudnnTorch = "PyTorch was compiled against ";
constexpr std::string_view kKernelDso = "kernel version ";
constexpr std::string_view kTfCudnn = "Loaded runtime CuDNN library: ";

constexpr std::string_view kNvmlVersion = "NVML library version: ";
constexpr std::string_view kTotalCapacity = " total capacity";
constexpr std::string_view kHasTotal = " has a total capacity of ";
constexpr std::string_view kHasTotalTypo = " has a total capacty of ";  // as some torch releases spell it (MMed-RAG#38)
constexpr std::string_view kDsMismatch = "Installed CUDA version ";
constexpr std::string_view kError804 = "Error 804: forward compatibility was attempted on non supported HW";
// The kernel log's, over two lines: "NVRM: API mismatch: the client has the
// version 570.153.02, but" / "NVRM: this kernel module has the version 570.144."
constexpr std::string_view kApiClient = "API mismatch: the client has the version ";
constexpr std::string_view kApiModule = "this kernel module has the version ";

constexpr std::string_view kDriverCombination = "system has unsupported display driver / cuda driver combination";
// ollama's GPU discovery: "Unable to load cudart library /usr/lib/…/libcuda.so.575.57.08: cuda driver library init failure: 3"
constexpr std::string_view kInitFailure = "cuda driver library init failure: ";
// JAX: "Found cuDNN version 8600, but JAX was built against version 8906"
constexpr std::string_view kJaxFoundCudnn = "Found cuDNN version ";
constexpr std::string_view kJaxBuiltCudnn = "JAX was built against version ";
// Paddle: "The installed PaddlePaddle package was compiled for 60 61 70 75 80 86 ,but your current GPU is 120"
constexpr std::string_view kPaddleFor = "PaddlePaddle package was compiled for ";
constexpr std::string_view kPaddleGpu = "your current GPU is ";

// Triton (vLLM's backend): "Found Tesla P40 which is too old to be supported by the triton GPU compiler, …
// but your device is of CUDA capability 6.1"
constexpr std::string_view kTritonTooOld = " which is too old to be supported by the triton GPU compiler";
constexpr std::string_view kTritonCc = "your device is of CUDA capability ";

constexpr std::array kMarkers{kTritonTooOld, kDriverCombination, kInitFailure, kJaxFoundCudnn, kPaddleFor, kTooOld,     kNotCompatible, kSupports, kHasCc, kFoundGpu, kCudnnTorch, std::string_view(" does not match DSO version "),
                              kTfCudnn,    kNvmlVersion,   kHasTotal, kHasTotalTypo, std::string_view("GiB total capacity"), kDsMismatch, kError804,
                              kApiClient, kApiModule};

bool contains(std::string_view s, std::string_view w) { return s.find(w) != std::string_view::npos; }

// "8.0", "12.0": a compute capability.
bool is_cc(std::string_view v) { return v.size() >= 3 && std::isdigit(static_cast<unsigned char>(v[0])) && v.find('.') != std::string_view::npos; }

// The word a message puts a value in, without the sentence's "." or ",".
std::string_view value_word(std::string_view t) {
  auto w = first_word(t);
  while (!w.empty() && (w.back() == '.' || w.back() == ',' || w.back() == '"' || w.back() == '\'' || w.back() == '`')) w.remove_suffix(1);
  return w;
}

// "(9, 1, 0)" -> "9.1.0"
std::optional<std::string> tuple_version(std::string_view t) {
  t = trim(t);
  if (t.size() < 3 || t.front() != '(') return std::nullopt;
  const auto close = t.find(')');
  if (close == std::string_view::npos) return std::nullopt;
  std::string out;
  for (auto part : split(t.substr(1, close - 1), ',')) {
    const auto n = parse_int(trim(part));
    if (!n) return std::nullopt;
    if (!out.empty()) out += ".";
    out += std::to_string(*n);
  }
  return out;
}

// The error's GPU: a device of the report, ordinal 0 unless one is named.
CudaDevice& device(BlockFacts& out, std::string_view name) {
  if (!out.facts.cuda) out.facts.cuda = CudaDriverApiFacts{};
  auto& devs = out.facts.cuda->devices;
  for (auto& d : devs)
    if (!d.name || *d.name == name) {
      if (!name.empty()) d.name = std::string(name);
      return d;
    }
  CudaDevice d;
  d.ordinal = static_cast<int>(devs.size());
  d.pci_bus_id = "report:GPU" + std::to_string(d.ordinal);
  if (!name.empty()) d.name = std::string(name);
  devs.push_back(std::move(d));
  return devs.back();
}

std::string_view strip_gpu_word(std::string_view name) {
  name = trim(name);
  if (name.size() > 4 && to_lower(name.substr(name.size() - 4)) == " gpu") name.remove_suffix(4);
  return name;
}

// "14.62 GiB" -> bytes
std::optional<std::uint64_t> gib_bytes(std::string_view t) {
  t = trim(t);
  const auto n = parse_double(first_word(t));
  if (!n || *n <= 0 || *n > 1e6) return std::nullopt;
  const auto unit = first_word(t.substr(first_word(t).size()));
  const auto u = to_lower(unit.substr(0, 3));
  const double scale = u == "gib" ? 1024.0 * 1024 * 1024 : u == "mib" ? 1024.0 * 1024 : 0;
  if (scale == 0) return std::nullopt;
  return static_cast<std::uint64_t>(*n * scale);
}

// "224.00 MiB", "0 bytes", "1.5 GiB": a size as torch's allocator prints it.
std::optional<std::uint64_t> printed_size(std::string_view t) {
  t = trim(t);
  const auto n = parse_double(first_word(t));
  if (!n || *n < 0 || *n > 1e6) return std::nullopt;  // at most 10^6 TiB: within uint64
  const auto u = to_lower(first_word(t.substr(first_word(t).size())).substr(0, 3));
  const double scale = u == "byt" ? 1 : u == "kib" ? 1024.0 : u == "mib" ? 1024.0 * 1024 : u == "gib" ? 1024.0 * 1024 * 1024 : u == "tib" ? 1024.0 * 1024 * 1024 * 1024 : 0;
  if (scale == 0) return std::nullopt;
  return static_cast<std::uint64_t>(*n * scale);
}

// What torch's out-of-memory error asked for and found free: "Tried to
// allocate 224.00 MiB (GPU 0; …; 46.44 MiB free; …)" before 2.1, "…; GPU 0
// has a total capacity of 8.00 GiB of which 0 bytes is free" after.
void read_out_of_memory(std::string_view t, const std::string& source, BlockFacts& out) {
  static constexpr std::string_view kTried = "Tried to allocate ", kOfWhich = " of which ", kFreeSemi = " free;";
  OutOfMemoryStatement oom{std::nullopt, std::nullopt, source};
  if (const auto at = t.find(kTried); at != std::string_view::npos) oom.requested_bytes = printed_size(t.substr(at + kTried.size()));
  if (const auto at = t.find(kOfWhich); at != std::string_view::npos && t.find(" is free", at) != std::string_view::npos)
    oom.free_bytes = printed_size(t.substr(at + kOfWhich.size()));
  else if (const auto end = t.find(kFreeSemi); end != std::string_view::npos) {
    const auto start = t.rfind("; ", end);
    if (start != std::string_view::npos) oom.free_bytes = printed_size(t.substr(start + 2, end - start - 2));
  }
  if ((oom.requested_bytes || oom.free_bytes) && !out.out_of_memory) out.out_of_memory = std::move(oom);
}

// The CUDA device "GPU 3" names in torch's out-of-memory message.
CudaDevice& numbered_device(BlockFacts& out, std::string_view after_gpu) {
  const auto n = parse_int(first_word(after_gpu).substr(0, first_word(after_gpu).find_first_not_of("0123456789")));
  const int index = n && *n >= 0 && *n < 1024 ? static_cast<int>(*n) : 0;
  if (!out.facts.cuda) out.facts.cuda = CudaDriverApiFacts{};
  for (auto& d : out.facts.cuda->devices)
    if (d.pci_bus_id == "report:GPU" + std::to_string(index)) return d;
  CudaDevice d;
  d.ordinal = index;
  d.pci_bus_id = "report:GPU" + std::to_string(index);
  out.facts.cuda->devices.push_back(std::move(d));
  return out.facts.cuda->devices.back();
}

// cuDNN's version as one number: 8600 is 8.6.0 (major*1000 before 9), 90100 is 9.1.0.
std::optional<std::string> cudnn_number(std::string_view t) {
  const auto n = parse_int_in(value_word(t), 1000, 999999);
  if (!n) return std::nullopt;
  const int major = *n >= 10000 ? *n / 10000 : *n / 1000, rest = *n >= 10000 ? *n % 10000 : *n % 1000;
  return std::to_string(major) + "." + std::to_string(rest / 100) + "." + std::to_string(rest % 100);
}

void set_init_error(BlockFacts& out, int code, std::string_view message) {
  if (!out.facts.cuda) out.facts.cuda = CudaDriverApiFacts{};
  out.facts.cuda->init_code = code;
  if (auto name = cuda_error_name(code)) out.facts.cuda->init_name = *name;
  out.facts.cuda->init_message = std::string(message);
}

// What the loader, cuInit and the frameworks' own version checks state.
void read_loader_and_version_facts(std::string_view t, const std::string& source, BlockFacts& out) {
  if (t.find(kDriverCombination) != std::string_view::npos) set_init_error(out, 803, kDriverCombination);
  if (const auto at = t.find(kInitFailure); at != std::string_view::npos) {
    if (const auto code = parse_int_in(value_word(t.substr(at + kInitFailure.size())), 0, 1000000)) set_init_error(out, *code, "cuda driver library init failure");
    // "…/libcuda.so.575.57.08: cuda driver library init failure": the file is the driver's user-space version
    const auto so = t.rfind("libcuda.so.", at);
    const auto v = so == std::string_view::npos ? std::string_view{} : t.substr(so + 11, t.find(':', so) - so - 11);
    if (looks_like_version(v) && v.find('.') != std::string_view::npos) {
      out.facts.nvidia_driver.libcuda.soname = "libcuda.so.1";
      out.facts.nvidia_driver.libcuda.version = std::string(v);
      out.where["nvidia_driver.libcuda.version"] = source;
    }
  }
  if (const auto at = t.find(kTritonTooOld); at != std::string_view::npos) {
    add_statement(out.stated, ReportStatement{"below-vllm-minimum", source});
    const auto found = t.rfind("Found ", at);
    const auto cc_at = t.find(kTritonCc, at);
    const auto cc = cc_at == std::string_view::npos ? std::string_view{} : value_word(t.substr(cc_at + kTritonCc.size()));
    if (found != std::string_view::npos && is_cc(cc)) {
      device(out, trim(t.substr(found + 6, at - found - 6))).compute_capability = std::string(cc);
      out.where["cuda_driver_api.devices.compute_capability"] = source;
    }
  }
  if (const auto at = t.find(kJaxFoundCudnn); at != std::string_view::npos) {
    const auto built = t.find(kJaxBuiltCudnn, at);
    if (const auto found = cudnn_number(t.substr(at + kJaxFoundCudnn.size())))
      out.facts.software.libraries.push_back(LibraryInstall{"cudnn", *found, source, std::nullopt, "(loaded, from the error)"});
    if (const auto want = built == std::string_view::npos ? std::nullopt : cudnn_number(t.substr(built + kJaxBuiltCudnn.size()))) {
      auto& fw = report_framework(report_python(out.facts), "jaxlib");
      fw.cudnn = *want;
      if (fw.source.empty()) fw.source = source;
    }
  }
  if (const auto at = t.find(kPaddleFor); at != std::string_view::npos) {
    const auto gpu = t.find(kPaddleGpu, at);
    auto& deep = report_deep(report_python(out.facts), "paddlepaddle");
    deep.arch_list.clear();
    for (auto w : split(t.substr(at + kPaddleFor.size(), gpu == std::string_view::npos ? std::string_view::npos : gpu - at - kPaddleFor.size()), ' ')) {
      while (!w.empty() && (w.back() == ',' || w.back() == '.')) w.remove_suffix(1);
      while (!w.empty() && w.front() == ',') w.remove_prefix(1);
      if (w.size() >= 2 && parse_int_in(w, 10, 999)) deep.arch_list.push_back("sm_" + std::string(w));
    }
    auto& fw = report_framework(report_python(out.facts), "paddlepaddle");
    if (fw.source.empty()) fw.source = source;
    if (const auto cc = gpu == std::string_view::npos ? std::nullopt : parse_int_in(value_word(t.substr(gpu + kPaddleGpu.size())), 10, 999)) {
      device(out, "").compute_capability = std::to_string(*cc / 10) + "." + std::to_string(*cc % 10);
      out.where["cuda_driver_api.devices.compute_capability"] = source;
    }
  }
}

// The forms of the libraries below torch: NVML, the allocator, DeepSpeed, the driver.
void read_more_error_facts(std::string_view t, const std::string& source, BlockFacts& out) {
  // NVML: "Failed to initialize NVML: Driver/library version mismatch" then "NVML library version: 550.107".
  if (const auto at = t.find(kNvmlVersion); at != std::string_view::npos) {
    auto v = first_word(t.substr(at + kNvmlVersion.size()));
    while (!v.empty() && (v.back() == '.' || v.back() == '`')) v.remove_suffix(1);
    if (looks_like_version(v)) {
      out.facts.nvidia_driver.libnvidia_ml.soname = "libnvidia-ml.so.1";
      out.facts.nvidia_driver.libnvidia_ml.version = std::string(v);
      out.where["nvidia_driver.libnvidia_ml.version"] = source;
    }
  }
  read_out_of_memory(t, source, out);
  // torch's out-of-memory: "(GPU 0; 14.62 GiB total capacity; …)" before 2.1,
  // "GPU 0 has a total capacity of 23.65 GiB of which …" after.
  auto total = t.find(kHasTotal);
  auto total_len = kHasTotal.size();
  if (total == std::string_view::npos) total = t.find(kHasTotalTypo), total_len = kHasTotalTypo.size();
  if (const auto at = total; at != std::string_view::npos) {
    const auto gpu = t.rfind("GPU ", at);
    if (const auto bytes = gib_bytes(t.substr(at + total_len)); bytes && gpu != std::string_view::npos)
      numbered_device(out, t.substr(gpu + 4)).memory_bytes = bytes;
  } else if (const auto cap = t.find(kTotalCapacity); cap != std::string_view::npos) {
    // a paste may lower-case it: "(gpu 0; 8.00 gib total capacity; …)" (kohya_ss#3329)
    const auto gpu = to_lower(t.substr(0, cap)).rfind("(gpu ");
    if (gpu != std::string_view::npos) {
      const auto semi = t.find("; ", gpu);
      if (semi != std::string_view::npos && semi < cap)
        if (const auto bytes = gib_bytes(t.substr(semi + 2, cap - semi - 2))) numbered_device(out, t.substr(gpu + 5)).memory_bytes = bytes;
    }
  }
  // DeepSpeed's op builder: "Installed CUDA version 12.2 does not match the
  // version torch was compiled with 11.7": nvcc's toolkit, and torch's CUDA.
  if (const auto at = t.find(kDsMismatch); at != std::string_view::npos) {
    auto installed = first_word(t.substr(at + kDsMismatch.size()));
    const auto with = t.find("torch was compiled with ", at);
    const auto built = with == std::string_view::npos ? std::string_view{} : value_word(t.substr(with + 24));
    if (looks_like_version(installed)) {
      CudaToolkit tk;
      tk.root = "(from report)";
      tk.kind = "report";
      tk.version = std::string(installed);
      tk.version_source = source;
      tk.active = true;
      tk.active_because = {"DeepSpeed's op builder (the toolkit of CUDA_HOME or the nvcc on PATH)"};
      out.facts.software.toolkits.push_back(std::move(tk));
    }
    if (looks_like_version(built)) {
      auto& fw = report_framework(report_python(out.facts), "torch");
      fw.cuda = std::string(built);
      if (fw.source.empty()) fw.source = source;
    }
  }
  // cuInit's (or cudaGetDeviceCount's) 804 on a GPU that forward compatibility does not support.
  if (t.find(kError804) != std::string_view::npos) {
    if (!out.facts.cuda) out.facts.cuda = CudaDriverApiFacts{};
    out.facts.cuda->init_code = 804;
    out.facts.cuda->init_name = "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE";
    out.facts.cuda->init_message = "forward compatibility was attempted on non supported HW";
  }
}

// Errors the matrix's rules explain that state no value: the paste still
// shows them, and a block names them.
constexpr std::array<std::string_view, 18> kKnownErrors{
    "bf16 mixed precision requires PyTorch >= 1.10 and a supported device", "requirement error: unsatisfied condition: cuda",
    "Torch not compiled with CUDA enabled", "you must use the 'spawn' start method", "Unsupported gpu architecture",
    "Your GPU's capability is ",
    "no kernel image is available for execution on the device", "invalid device function", "CUDA out of memory",
    "OutOfMemoryError", "CUDA driver version is insufficient", "Driver/library version mismatch",
    "Cannot re-initialize CUDA in forked subprocess", "Expected all tensors to be on the same device",
    "is only supported on GPUs with compute capability", "CUDA_HOME does not exist", "Found no NVIDIA driver on your system",
    "CUDA_ERROR_NO_DEVICE"};

}  // namespace

bool states_error_facts(std::string_view line) {
  for (auto m : kMarkers)
    if (contains(line, m)) return true;
  for (auto m : kKnownErrors)
    if (contains(line, m)) return true;
  return !stated_kinds(line).empty();
}

void read_error_facts(std::string_view t, const std::string& source, BlockFacts& out) {
  const auto low = to_lower(t);
  for (auto kind : stated_kinds(t)) add_statement(out.stated, ReportStatement{std::string(kind), source});
  if (const auto at = t.find(kTooOld); at != std::string_view::npos) {
    const auto digits = t.substr(at + kTooOld.size());
    if (const auto cuda = Version::from_cuda_int(parse_int(digits.substr(0, digits.find(')'))).value_or(0))) {
      if (!out.facts.cuda) out.facts.cuda = CudaDriverApiFacts{};
      out.facts.cuda->driver_version = cuda->text();
      out.where["cuda_driver_api.driver_version"] = source;
    }
  }
  // "NVIDIA GeForce RTX 5090 with CUDA capability sm_120 is not compatible …"
  if (const auto at = t.find(kNotCompatible); at != std::string_view::npos) {
    const auto head = t.substr(0, at);
    const auto with = head.rfind(" with CUDA capability sm_");
    if (with != std::string_view::npos) {
      auto name = head.substr(0, with);
      if (const auto colon = name.rfind(": "); colon != std::string_view::npos) name = name.substr(colon + 2);
      const auto sm = head.substr(with + 25);
      if (sm.size() >= 2 && parse_int(sm)) {
        auto& d = device(out, trim(name));
        d.compute_capability = std::string(sm.substr(0, sm.size() - 1)) + "." + std::string(sm.substr(sm.size() - 1));
        out.where["cuda_driver_api.devices.compute_capability"] = source;
      }
    }
  }
  // "The current PyTorch install supports CUDA capabilities sm_50 sm_60 sm_70 …."
  if (const auto at = t.find(kSupports); at != std::string_view::npos) {
    // The install is shown, though not its version.
    if (auto& fw = report_framework(report_python(out.facts), "torch"); fw.source.empty()) fw.source = source;
    auto& deep = report_deep(report_python(out.facts), "torch");
    deep.arch_list.clear();
    for (auto w : split(t.substr(at + kSupports.size()), ' ')) {
      while (!w.empty() && (w.back() == '.' || w.back() == ',')) w.remove_suffix(1);
      if (starts_with(w, "sm_") || starts_with(w, "compute_")) deep.arch_list.emplace_back(w);
    }
  }
  // "Your Tesla T4 GPU has compute capability 7.5."
  if (const auto at = t.find(kHasCc); at != std::string_view::npos) {
    const auto head = t.substr(0, at);
    const auto your = std::string_view(low).substr(0, at).rfind("your ");
    auto cc = first_word(t.substr(at + kHasCc.size()));
    while (!cc.empty() && (cc.back() == '.' || cc.back() == ',' || cc.back() == '*' || cc.back() == '`')) cc.remove_suffix(1);
    if (your != std::string_view::npos && is_cc(cc)) {
      device(out, strip_gpu_word(head.substr(your + 5))).compute_capability = std::string(cc);
      out.where["cuda_driver_api.devices.compute_capability"] = source;
    }
  }
  // ComfyUI's "Your GPU's capability is 8.6." (no name)
  if (const auto at = t.find("Your GPU's capability is "); at != std::string_view::npos) {
    const auto cc = value_word(t.substr(at + 25));
    if (is_cc(cc)) device(out, "").compute_capability = std::string(cc);
  }
  // "Found GPU0 Tesla K80 which is of cuda capability 3.7."
  if (const auto at = t.find(kFoundGpu); at != std::string_view::npos) {
    const auto head = t.substr(0, at);
    const auto found = head.rfind("Found GPU");
    auto cc = first_word(t.substr(at + kFoundGpu.size()));
    while (!cc.empty() && cc.back() == '.') cc.remove_suffix(1);
    if (found != std::string_view::npos && is_cc(cc)) {
      auto rest = head.substr(found + 9);
      const auto sp = rest.find(' ');
      if (sp != std::string_view::npos) device(out, trim(rest.substr(sp + 1))).compute_capability = std::string(cc);
    }
  }
  // "PyTorch was compiled against (9, 1, 0) but found runtime version (8, 9, 2)"
  if (const auto at = t.find(kCudnnTorch); at != std::string_view::npos && contains(t, "cuDNN")) {
    const auto rest = t.substr(at + kCudnnTorch.size());
    const auto built = tuple_version(rest);
    const auto found = rest.find("found runtime version ");
    const auto runtime = found == std::string_view::npos ? std::nullopt : tuple_version(rest.substr(found + 22));
    if (built) {
      auto& fw = report_framework(report_python(out.facts), "torch");
      fw.cudnn = built;
      if (fw.source.empty()) fw.source = source;
    }
    if (runtime) report_deep(report_python(out.facts), "torch").cudnn_version = runtime;
  }
  // "kernel version 535.104.5 does not match DSO version 545.23.6"
  if (const auto dso = t.find(" does not match DSO version "); dso != std::string_view::npos) {
    const auto at = t.rfind(kKernelDso, dso);
    if (at != std::string_view::npos) {
      const auto kernel = trim(t.substr(at + kKernelDso.size(), dso - at - kKernelDso.size()));
      const auto lib = value_word(t.substr(dso + 28));
      if (looks_like_version(kernel)) {
        out.facts.nvidia_driver.kernel_module.version = std::string(kernel);
        out.facts.nvidia_driver.kernel_module.source = source;
      }
      if (looks_like_version(lib)) {
        out.facts.nvidia_driver.libcuda.soname = "libcuda.so.1";
        out.facts.nvidia_driver.libcuda.version = std::string(lib);
        out.where["nvidia_driver.libcuda.version"] = source;
      }
    }
  }
  // The kernel module refusing a user-space driver component of another version.
  auto version_after = [&](std::string_view marker) {
    const auto at = t.find(marker);
    const auto v = at == std::string_view::npos ? std::string_view{} : value_word(t.substr(at + marker.size()));
    return looks_like_version(v) ? std::optional<std::string>(v) : std::nullopt;
  };
  if (auto client = version_after(kApiClient)) {
    out.facts.nvidia_driver.libcuda.soname = "libcuda.so.1";
    out.facts.nvidia_driver.libcuda.version = *client;
    out.where["nvidia_driver.libcuda.version"] = source;
  }
  if (auto module = version_after(kApiModule)) {
    out.facts.nvidia_driver.kernel_module.version = *module;
    out.facts.nvidia_driver.kernel_module.source = source;
  }
  // TensorFlow: "Loaded runtime CuDNN library: 8.1.0 but source was compiled with: 8.6.0."
  if (const auto at = t.find(kTfCudnn); at != std::string_view::npos) {
    const auto runtime = first_word(t.substr(at + kTfCudnn.size()));
    const auto with = t.find("compiled with: ", at);
    auto built = with == std::string_view::npos ? std::string_view{} : first_word(t.substr(with + 15));
    while (!built.empty() && built.back() == '.') built.remove_suffix(1);
    if (looks_like_version(runtime))
      out.facts.software.libraries.push_back(LibraryInstall{"cudnn", std::string(runtime), source, std::nullopt, "(loaded, from the error)"});
    if (looks_like_version(built)) {
      auto& fw = report_framework(report_python(out.facts), "tensorflow");
      fw.cudnn = std::string(built);
      if (fw.source.empty()) fw.source = source;
    }
  }
  read_more_error_facts(t, source, out);
  read_loader_and_version_facts(t, source, out);
}

namespace {

ReportReading message_reading() {
  ReportReading r;
  r.name = "the message";
  return r;
}

}  // namespace

bool add_message_facts(Facts& facts, std::string_view message) {
  // A kernel log line: its Xid, as the kernel log probe reads it.
  if (auto xids = parse_xid_events(message); !xids.empty()) {
    facts.kernel_log.read = true;
    facts.kernel_log.source = "the message";
    facts.kernel_log.xid_events = std::move(xids);
  }
  BlockFacts read;
  for (auto line : split(message, '\n'))
    if (states_error_facts(line)) read_error_facts(trim(line), "the message", read);
  if (read.where.empty() && !read.facts.cuda && read.facts.software.python.empty() && read.facts.software.libraries.empty() &&
      !read.facts.nvidia_driver.kernel_module.version && read.stated.empty())
    return !facts.kernel_log.xid_events.empty();
  if (!read.stated.empty()) {
    if (!facts.report) facts.report = message_reading();
    for (auto& st : read.stated) add_statement(facts.report->stated, st);
    if (!facts.report->out_of_memory) facts.report->out_of_memory = read.out_of_memory;
  }
  std::map<std::string, std::string> where;
  std::vector<ReportConflict> conflicts;
  merge_block_facts(facts, where, std::move(read), conflicts, "the message");
  if (!conflicts.empty()) {
    if (!facts.report) facts.report = message_reading();
    facts.report->conflicts.insert(facts.report->conflicts.end(), conflicts.begin(), conflicts.end());
  }
  return true;
}

}  // namespace gpucheck
