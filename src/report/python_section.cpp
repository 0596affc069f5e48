// Text report: Python environments. For each interpreter a job would use:
// where it is, how sys.path was learnt, the GPU frameworks with their build,
// the pinned requirements that are not met, and (with --deep) what the
// frameworks said about themselves. The full package list is in --json.
#include <cstdio>

#include "report/text_writer.hpp"
#include "util/strings.hpp"

namespace gpucheck {

namespace {

std::string framework_line(const FrameworkBuild& f) {
  std::string s = f.version;
  std::string build;
  if (f.cuda) build += "CUDA " + *f.cuda;
  if (f.hip) build += std::string(build.empty() ? "" : ", ") + "ROCm/HIP " + *f.hip;
  if (f.cudnn) build += std::string(build.empty() ? "" : ", ") + "cuDNN " + *f.cudnn;
  if (f.cpu_only) build += std::string(build.empty() ? "" : ", ") + "CPU-only build";
  if (!build.empty()) s += "  [" + build + "]";
  return s;
}

std::string yes_no(const std::optional<bool>& b) { return b ? (*b ? "yes" : "no") : "unknown"; }

void deep_lines(Writer& w, const DeepProbeFacts& d) {
  if (d.error) w.fact("deep probe", "no answer: " + *d.error);
  for (auto& f : d.frameworks) {
    if (f.import_error) {
      w.fact("  " + f.name, "import failed: " + *f.import_error);
      continue;
    }
    std::string s = "CUDA available " + yes_no(f.cuda_available);
    if (f.device_count) s += ", " + std::to_string(*f.device_count) + " device(s)";
    w.fact("  " + f.name, s, "imported");
    if (!f.arch_list.empty()) w.fact("    arch list", join(f.arch_list, " "));
    if (f.cudnn_version || f.nccl_version)
      w.fact("    loaded", "cuDNN " + or_unknown(f.cudnn_version) + ", NCCL " + or_unknown(f.nccl_version));
    if (f.tf32_matmul || f.float32_matmul_precision)
      w.fact("    TF32", "matmul " + yes_no(f.tf32_matmul) + ", cuDNN " + yes_no(f.tf32_cudnn) +
                             ", float32 matmul precision " + or_unknown(f.float32_matmul_precision));
    if (f.bf16_supported) w.fact("    BF16", yes_no(f.bf16_supported));
    if (f.fp32_matmul_rel_error) {
      char buf[64];
      std::snprintf(buf, sizeof buf, "%.2e", *f.fp32_matmul_rel_error);
      w.fact("    FP32 matmul", std::string("relative error ") + buf +
                                    (f.fp32_matmul_looks_tf32.value_or(false) ? " (runs as TF32)" : " (true FP32)"));
    }
    for (auto& lib : f.loaded_libraries) w.fact("    mapped", lib);
  }
}

}  // namespace

// Where a sys.path came from, in a reader's words.
std::string sys_path_how(const std::string& source) {
  if (source == "interpreter") return "asked the interpreter";
  if (source == "files") return "worked out from files, as the interpreter would";
  return source;
}

void python_section(Writer& w, const Facts& f) {
  w.section("Python environments");
  if (f.software.python.empty()) w.line(nothing_found(f));
  for (auto& e : f.software.python) {
    w.fact("Python", e.interpreter + " (" + e.kind + ", " + or_unknown(e.version, "version unknown") + ")",
           "found via " + join(e.found_via, ", "));
    w.fact("  sys.path", std::to_string(e.sys_path.size()) + " entries, " + std::to_string(e.distributions.size()) +
                             " distributions", sys_path_how(e.sys_path_source));
    for (auto& fw : e.frameworks) w.fact("  " + fw.name, framework_line(fw), fw.source);
    for (auto& d : e.distributions)
      for (auto& r : d.requires_dist)
        if (r.satisfied == false)
          w.fact("  unmet pin", d.name + " " + d.version + " requires " + r.name + r.specifier + ", installed " +
                                    r.installed.value_or("none"), d.source);
    for (auto& v : e.loader) loader_lines(w, v);
    if (e.loader.empty() && !e.frameworks.empty())
      w.fact("  loader", "no framework object here links a CUDA or ROCm library", "a CPU-only build, or none of its shared objects found");
    if (e.deep) deep_lines(w, *e.deep);
  }
}

}  // namespace gpucheck
