// collect_env's fields as Facts. A report says less than a probe: what it
// does not state stays absent, with a note, and "Could not collect", "N/A",
// "None" are unknowns, not values. Every fact cites its line.
#include <array>

#include "importers/block_util.hpp"
#include "importers/collect_env.hpp"
#include "matrix/platform_knowledge.hpp"
#include "parse/conda_build.hpp"
#include "parse/library_name.hpp"
#include "parse/local_tag.hpp"
#include "parse/python_version.hpp"
#include "util/strings.hpp"
#include "util/version.hpp"

namespace gpucheck {

namespace {

std::optional<std::string> known(const std::optional<ReportValue>& v) {
  if (!v) return std::nullopt;
  static constexpr std::array kUnknown{"", "Could not collect", "N/A", "None", "No CUDA", "Not Available", "Unknown"};
  for (auto u : kUnknown)
    if (v->text == u) return std::nullopt;
  return v->text;
}


// "Ubuntu 22.04.4 LTS (x86_64)": collect_env appends the machine since 1.8.
void map_os(const CollectEnvReport& r, const LineSource& at, SystemFacts& s) {
  auto os = known(r.os);
  if (!os) return;
  static constexpr std::array kMachines{"x86_64", "aarch64", "arm64", "ppc64le", "s390x", "AMD64", "i386", "i686"};
  for (auto m : kMachines) {
    const std::string suffix = std::string(" (") + m + ")";
    if (os->size() > suffix.size() && os->compare(os->size() - suffix.size(), suffix.size(), suffix) == 0) {
      s.arch = m;
      os->resize(os->size() - suffix.size());
      break;
    }
  }
  s.os.pretty_name = *os;
  s.os.source = at(r.os->line);
}

// "3.10.12 (main, …) [GCC 11.4.0] (64-bit runtime)", "3.8 (64-bit runtime)", "3.7".
std::optional<std::string> python_version(const CollectEnvReport& r) {
  auto v = known(r.python_version);
  if (!v) return std::nullopt;
  const auto end = v->find_first_of(" |");
  auto head = v->substr(0, end);
  if (!Version::parse(head)) return std::nullopt;
  return head;
}

FrameworkBuild torch_build(const CollectEnvReport& r, const LineSource& at, const std::string& version) {
  FrameworkBuild f;
  f.name = "torch";
  f.version = version;
  f.source = at(r.torch_version->line);
  if (auto plus = version.find('+'); plus != std::string::npos) f.local_tag = version.substr(plus + 1);
  f.cuda = known(r.cuda_build);
  f.hip = known(r.rocm_build);
  for (auto& p : r.packages)
    if (p.manager == "conda" && p.name == "pytorch" && version.rfind(p.version, 0) == 0) {
      const CondaBuild b = p.build ? parse_conda_build(*p.build) : CondaBuild{};
      if (!f.cuda) f.cuda = b.cuda;
      f.cudnn = b.cudnn;
    }
  if (f.local_tag) {
    if (!f.cuda) f.cuda = cuda_from_local_tag(*f.local_tag);
    if (!f.hip) f.hip = hip_from_local_tag(*f.local_tag);
  }
  // collect_env prints torch.version.cuda there. A build without CUDA has
  // None, which pretty_str turns into "Could not collect" (replace_nones), or
  // "None" when the host shows no CUDA at all; a ROCm build prints "N/A" and
  // its HIP version on the ROCm line (torch/utils/collect_env.py).
  const bool says_no_cuda =
      r.cuda_build && (r.cuda_build->text == "None" ||
                       (r.cuda_build->text == "Could not collect" && (!r.rocm_build || r.rocm_build->text == "N/A")));
  f.cpu_only = !f.cuda && !f.hip && (says_no_cuda || f.local_tag == "cpu");
  return f;
}

// "nvidia-cudnn-cu12" -> "nvidia-cudnn": the name without its CUDA major.
std::string_view without_cuda_suffix(std::string_view wheel) {
  const auto cu = wheel.rfind("-cu");
  if (cu == std::string_view::npos || cu + 3 == wheel.size()) return wheel;
  for (char c : wheel.substr(cu + 3))
    if (c < '0' || c > '9') return wheel;
  return wheel.substr(0, cu);
}

void map_cudnn(const CollectEnvReport& r, const LineSource& at, SoftwareFacts& s) {
  auto add_path = [&](const std::string& path, int line) {
    const auto base = path.substr(path.find_last_of("/\\") + 1);
    if (!starts_with(base, "libcudnn.so") && !starts_with(base, "cudnn64_") && !starts_with(base, "libcudnn."))
      return;  // the sub-libraries (libcudnn_ops_infer.so.8.9.2, …) repeat the same install
    LibraryInstall l;
    l.name = "cudnn";
    l.version = library_version_from_name(path, "libcudnn.so");
    if (l.version) l.version_source = at(line);
    l.library = path;
    l.found_in = path.substr(0, path.find_last_of("/\\"));
    s.libraries.push_back(std::move(l));
  };
  if (auto v = known(r.cudnn); v && !starts_with(*v, "Probably one of the following")) {
    if (starts_with(*v, "/") || (v->size() > 2 && (*v)[1] == ':')) {
      add_path(*v, r.cudnn->line);
    } else if (Version::parse(*v)) {
      s.libraries.push_back(LibraryInstall{"cudnn", *v, at(r.cudnn->line), std::nullopt, "(from report)"});
    }
  }
  for (auto& c : r.cudnn_candidates) add_path(c.text, c.line);
}

PythonEnv python_env(const CollectEnvReport& r, const std::string& label, const LineSource& at) {
  PythonEnv e;
  e.interpreter = "(from report)";
  e.kind = "report";
  e.found_via = {label};
  e.version = python_version(r);
  e.sys_path_source = "not in the report";
  for (auto& p : r.packages) {
    Distribution d;
    d.name = p.name;
    d.version = p.version;
    d.source = at(p.line);
    d.installer = p.manager == "conda" ? "conda" : "pip";
    e.distributions.push_back(std::move(d));
  }
  if (auto v = known(r.torch_version)) e.frameworks.push_back(torch_build(r, at, *v));
  if (auto v = known(r.vllm_version)) {
    FrameworkBuild f;
    f.name = "vllm";
    f.version = v->substr(0, v->find('@'));  // "0.5.4@4db5176d…": the commit it was built from
    f.source = at(r.vllm_version->line);
    e.frameworks.push_back(std::move(f));
  }
  // collect_env imports torch: "Is CUDA available" is torch's own answer,
  // what the deep probe asks.
  if (r.cuda_available && (r.cuda_available->text == "True" || r.cuda_available->text == "Yes" ||
                           r.cuda_available->text == "False" || r.cuda_available->text == "No")) {
    DeepFramework t;
    t.name = "torch";
    t.version = known(r.torch_version);
    t.cuda_available = r.cuda_available->text == "True" || r.cuda_available->text == "Yes";
    e.deep = DeepProbeFacts{std::nullopt, {std::move(t)}};
  }
  return e;
}

// "GPU n: name" lines, else the one bare name older releases print
// (torch.cuda.get_device_name).
std::vector<ReportGpuLine> report_gpus(const CollectEnvReport& r) {
  std::vector<ReportGpuLine> gpus = r.gpus;
  if (gpus.empty())
    if (auto bare = known(r.gpu_models)) gpus.push_back(ReportGpuLine{std::nullopt, *bare, std::nullopt, r.gpu_models->line});
  return gpus;
}

// A paste cut inside its last GPU line ("GPU 7: NVIDIA H1") names no model:
// when that name is the start of another GPU's, it is that GPU's name cut
// short, not another model. Returns the full name, when exactly one fits.
std::optional<std::string> cut_name(const CollectEnvReport& r, const std::vector<ReportGpuLine>& gpus, std::size_t i) {
  if (!r.ends_paste || i + 1 != gpus.size() || gpus.size() < 2 || gpus[i].line != r.lines) return std::nullopt;
  const auto& cut = gpus[i].name;
  std::optional<std::string> full;
  for (std::size_t k = 0; k + 1 < gpus.size(); ++k) {
    const auto& other = gpus[k].name;
    if (other.size() <= cut.size() || other.compare(0, cut.size(), cut) != 0) continue;
    if (full && *full != other) return std::nullopt;
    full = other;
  }
  return full;
}

// A ROCm build's collect_env appends the GPU's gfx target id to its name:
// "AMD Radeon RX 5700 XT (gfx1010:xnack-)". Returns {name, target}.
std::optional<std::pair<std::string, std::string>> gfx_suffix(const std::string& name) {
  const auto open = name.rfind(" (gfx");
  if (open == std::string::npos || name.back() != ')') return std::nullopt;
  return std::make_pair(name.substr(0, open), name.substr(open + 2, name.size() - open - 3));
}

// An AMD GPU: its gfx suffix, or a ROCm build's device (releases before
// 2.2 print no suffix: "AMD Radeon RX 6750 XT", "Device 66a1"). A ROCm
// build names only AMD GPUs (torch.cuda.get_device_name is HIP's there);
// a line with an NVIDIA UUID came from nvidia-smi -L, collect_env's
// fallback when torch sees no GPU.
bool amd_gpu(const CollectEnvReport& r, const ReportGpuLine& g) {
  if (gfx_suffix(g.name)) return true;
  if (starts_with(g.name, "AMD ") || starts_with(g.name, "Radeon")) return true;
  const bool rocm_build = known(r.rocm_build).has_value() && !known(r.cuda_build);
  return rocm_build && !g.uuid;
}

std::optional<NvidiaSmiFacts> smi(const CollectEnvReport& r, const std::vector<ReportGpuLine>& gpus, const LineSource& at) {
  NvidiaSmiFacts s;
  s.driver_version = known(r.driver_version);
  for (std::size_t i = 0; i < gpus.size(); ++i) {
    if (amd_gpu(r, gpus[i])) continue;
    SmiGpu g;
    // No PCI address in the report: a stable placeholder that names the GPU's
    // index, so findings can still point at "GPU 2" (docs/report-formats.md).
    g.pci_bus_id = report_gpu_key(gpus[i].index.value_or(static_cast<int>(i)));
    g.product_name = cut_name(r, gpus, i).value_or(gpus[i].name);
    g.uuid = gpus[i].uuid;
    s.gpus.push_back(std::move(g));
  }
  if (!s.driver_version && s.gpus.empty()) return std::nullopt;
  const int line = r.gpu_models ? r.gpu_models->line : (r.driver_version ? r.driver_version->line : 0);
  s.source = at(line);
  return s;
}

// AMD GPUs stand in for KFD nodes, numbered by the report's GPU index.
std::vector<KfdNode> kfd_nodes(const CollectEnvReport& r, const std::vector<ReportGpuLine>& gpus, const LineSource& at) {
  std::vector<KfdNode> out;
  for (std::size_t i = 0; i < gpus.size(); ++i) {
    if (!amd_gpu(r, gpus[i])) continue;
    KfdNode n;
    n.node = gpus[i].index.value_or(static_cast<int>(i));
    const auto name = cut_name(r, gpus, i).value_or(gpus[i].name);
    if (const auto gfx = gfx_suffix(name)) {
      n.name = gfx->first;
      n.gfx_target = gfx->second;
    } else {
      n.name = name;
    }
    n.source = at(gpus[i].line);
    out.push_back(std::move(n));
  }
  return out;
}

}  // namespace

// NVIDIA's library wheels (matrix/libraries.json), by the library they carry
// (as the probe names them); a metapackage carries none. A report's wheel
// matches by its name without the CUDA major, with any "-cuNN" or none:
// "nvidia-cudnn-cu12", "nvidia-cudnn-cu11", and CUDA 13's unsuffixed names.
std::optional<std::string> wheel_library(const std::string& dist) {
  const auto n = normalize_dist_name(dist);
  for (const auto& lib : library_wheel_table())
    for (const auto& wheel : lib.wheels) {
      const std::string w(without_cuda_suffix(wheel));
      if (n == w || (starts_with(n, w + "-cu") && n.find('-', w.size() + 1) == std::string::npos)) return lib.library;
    }
  return std::nullopt;
}

Facts collect_env_facts(const CollectEnvReport& r, const std::string& label, const LineSource& at) {
  Facts f;
  map_os(r, at, f.system);
  const auto gpus = report_gpus(r);
  f.nvidia_smi = smi(r, gpus, at);

  auto& sw = f.software;
  if (auto v = known(r.cuda_runtime)) {
    CudaToolkit t;
    t.root = "(from report)";
    t.kind = "report";
    t.version = *v;
    t.version_source = at(r.cuda_runtime->line);
    t.active = true;
    t.active_because = {"collect_env reports the nvcc first on PATH"};
    sw.toolkits.push_back(std::move(t));
  }
  map_cudnn(r, at, sw);
  if (auto v = known(r.miopen_runtime))
    sw.libraries.push_back(LibraryInstall{"miopen", *v, at(r.miopen_runtime->line), std::nullopt, "(from report)"});
  for (auto& p : r.packages)
    if (p.manager != "conda")
      if (auto lib = wheel_library(p.name))
        sw.libraries.push_back(LibraryInstall{*lib, p.version, at(p.line), std::nullopt, "pip (from report)"});
  sw.rocm.hip_version = known(r.hip_runtime);
  sw.rocm.gpu_nodes = kfd_nodes(r, gpus, at);
  if (auto v = known(r.rocm_version))
    sw.rocm.installs.push_back(RocmInstall{"(from report)", *v, at(r.rocm_version->line), true});

  if (r.torch_version || r.python_version || !r.packages.empty()) sw.python.push_back(python_env(r, label, at));

  if (r.driver_too_old_found)
    if (auto cuda = Version::from_cuda_int(parse_int(r.driver_too_old_found->text).value_or(0))) {
      CudaDriverApiFacts c;
      // CudaDriverApiFacts has no source field: the line is in the docs'
      // mapping table (docs/report-formats.md), not in the facts.
      c.driver_version = cuda->text();
      f.cuda = std::move(c);
    }

  if (!gpus.empty())
    if (auto full = cut_name(r, gpus, gpus.size() - 1))
      f.notes.push_back(Note{"report", "GPU models",
                             Problem{Reason::malformed, at(gpus.back().line),
                                     "the paste ends inside this line (\"" + gpus.back().name + "\"): read as " + *full +
                                         ", the GPU whose name it begins"}});
  if (r.gpu_models && !known(r.gpu_models) && r.gpus.empty())
    f.notes.push_back(Note{"report", "GPU models",
                           Problem{Reason::not_recorded, at(r.gpu_models->line),
                                   "the report says \"" + r.gpu_models->text + "\""}});
  if (r.driver_version && !known(r.driver_version))
    f.notes.push_back(Note{"report", "NVIDIA driver version",
                           Problem{Reason::not_recorded, at(r.driver_version->line),
                                   "the report says \"" + r.driver_version->text + "\""}});
  return f;
}

}  // namespace gpucheck
