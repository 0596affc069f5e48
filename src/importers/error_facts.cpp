#include "importers/error_facts.hpp"

#include <array>
#include <cctype>

#include "importers/block_util.hpp"
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

constexpr std::array kMarkers{kTooOld, kNotCompatible, kSupports, kHasCc, kFoundGpu, kCudnnTorch, std::string_view(" does not match DSO version "),
                              kTfCudnn};

bool contains(std::string_view s, std::string_view w) { return s.find(w) != std::string_view::npos; }

// "8.0", "12.0": a compute capability.
bool is_cc(std::string_view v) { return v.size() >= 3 && std::isdigit(static_cast<unsigned char>(v[0])) && v.find('.') != std::string_view::npos; }

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
  if (ends_with(name, " GPU")) name.remove_suffix(4);
  return name;
}

}  // namespace

bool states_error_facts(std::string_view line) {
  for (auto m : kMarkers)
    if (contains(line, m)) return true;
  return false;
}

void read_error_facts(std::string_view t, const std::string& source, BlockFacts& out) {
  if (const auto at = t.find(kTooOld); at != std::string_view::npos) {
    const auto digits = t.substr(at + kTooOld.size());
    if (const auto n = parse_int(digits.substr(0, digits.find(')'))); n && *n > 0 && *n < 1000000) {
      if (!out.facts.cuda) out.facts.cuda = CudaDriverApiFacts{};
      out.facts.cuda->driver_version = Version::from_cuda_int(static_cast<int>(*n)).text();
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
    const auto your = head.rfind("Your ");
    auto cc = first_word(t.substr(at + kHasCc.size()));
    while (!cc.empty() && (cc.back() == '.' || cc.back() == ',')) cc.remove_suffix(1);
    if (your != std::string_view::npos && is_cc(cc)) {
      device(out, strip_gpu_word(head.substr(your + 5))).compute_capability = std::string(cc);
      out.where["cuda_driver_api.devices.compute_capability"] = source;
    }
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
      auto lib = first_word(t.substr(dso + 28));
      while (!lib.empty() && (lib.back() == '.' || lib.back() == ',')) lib.remove_suffix(1);
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
}

bool add_message_facts(Facts& facts, std::string_view message) {
  BlockFacts read;
  for (auto line : split(message, '\n'))
    if (states_error_facts(line)) read_error_facts(trim(line), "the message", read);
  if (read.where.empty() && !read.facts.cuda && read.facts.software.python.empty() && read.facts.software.libraries.empty() &&
      !read.facts.nvidia_driver.kernel_module.version)
    return false;
  std::map<std::string, std::string> where;
  std::vector<ReportConflict> conflicts;
  merge_block_facts(facts, where, std::move(read), conflicts, "the message");
  if (!conflicts.empty()) {
    if (!facts.report) facts.report = ReportReading{"the message", {}, {}, 0, {}};
    facts.report->conflicts.insert(facts.report->conflicts.end(), conflicts.begin(), conflicts.end());
  }
  return true;
}

}  // namespace gpucheck
