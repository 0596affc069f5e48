// cuDNN, NCCL, cuBLAS, cuFFT, NVRTC, nvJitLink, TensorRT and the CUDA runtime:
// each copy with its version and how it was found. Headers state the exact
// version; library file names the version of the copy that loads; NVIDIA's
// wheels their dist-info. Which copy a framework really loads is the loader
// probe's answer.
#include <utility>

#include "matrix/platform_knowledge.hpp"
#include "parse/cuda_files.hpp"
#include "parse/library_name.hpp"
#include "probe.hpp"
#include "util/strings.hpp"

namespace gpucheck {
namespace {

struct LibrarySpec {
  const char* name;
  const char* header;                       // in an include directory
  std::vector<std::string> version_macros;  // major, minor, patch
  const char* soname_stem;                  // "libcudnn.so"
};

const std::vector<LibrarySpec>& specs() {
  static const std::vector<LibrarySpec> s = {
      {"cudart", "cuda_runtime_api.h", {}, "libcudart.so"},
      {"cudnn", "cudnn_version.h", {"CUDNN_MAJOR", "CUDNN_MINOR", "CUDNN_PATCHLEVEL"}, "libcudnn.so"},
      {"nccl", "nccl.h", {"NCCL_MAJOR", "NCCL_MINOR", "NCCL_PATCH"}, "libnccl.so"},
      {"cublas", "cublas_api.h", {"CUBLAS_VER_MAJOR", "CUBLAS_VER_MINOR", "CUBLAS_VER_PATCH"}, "libcublas.so"},
      {"cufft", "cufft.h", {"CUFFT_VER_MAJOR", "CUFFT_VER_MINOR", "CUFFT_VER_PATCH"}, "libcufft.so"},
      {"nvrtc", "", {}, "libnvrtc.so"},
      {"nvjitlink", "", {}, "libnvJitLink.so"},
      {"tensorrt", "NvInferVersion.h", {"NV_TENSORRT_MAJOR", "NV_TENSORRT_MINOR", "NV_TENSORRT_PATCH"}, "libnvinfer.so"},
  };
  return s;
}

// Gathers the copies found by every route into one entry per library and
// install, keeping the version from the most exact source.
class Collector {
 public:
  explicit Collector(ProbeContext& ctx) : ctx_(ctx) {}

  enum Rank { kFileName = 1, kDistInfo = 2, kHeader = 3 };

  void version(const std::string& name, const std::string& found_in, std::optional<std::string> v,
               const std::string& source, Rank rank) {
    const auto i = at(name, found_in);
    if (rank_.size() < libs().size()) rank_.resize(libs().size(), 0);
    if (!v || rank_[i] >= rank) return;
    rank_[i] = rank;
    libs()[i].version = std::move(v);
    libs()[i].version_source = source;
  }

  void library(const std::string& name, const std::string& found_in, const std::string& file, const char* stem) {
    auto& e = libs()[at(name, found_in)];
    if (!e.library) e.library = file;
    version(name, found_in, library_version_from_name(file, stem), file, kFileName);
  }

  // Headers in one include directory.
  void headers(const std::string& dir, const std::string& found_in) {
    for (auto& s : specs()) {
      if (!*s.header) continue;
      const std::string path = dir + "/" + s.header;
      auto text = ctx_.host().read_file(path, kVersionHeaderPrefix);
      if (!text) continue;
      const auto defs = integer_defines(*text);
      std::optional<std::string> v;
      Rank rank = kHeader;
      if (!s.version_macros.empty()) {
        v = version_from_defines(defs, s.version_macros);
      } else if (auto it = defs.find("CUDART_VERSION"); it != defs.end()) {
        // Major and minor only: a wheel's or a file's patch level says more.
        v = std::to_string(it->second / 1000) + "." + std::to_string((it->second % 1000) / 10);
        rank = kFileName;
      }
      if (!v) {
        ctx_.note("gpu_libraries", std::string(s.name) + " version", Problem{Reason::malformed, path, "the version macros are missing"});
        continue;
      }
      version(s.name, found_in, v, path, rank);
    }
  }

  // Library files in one directory, by the name of the real file.
  void library_dir(const std::string& dir, const std::string& found_in) {
    auto entries = ctx_.host().list_dir(dir);
    if (!entries) return;
    for (auto& s : specs())
      for (auto& e : *entries) {
        if (!starts_with(e.name, std::string(s.soname_stem) + ".")) continue;
        auto real = ctx_.host().real_path(dir + "/" + e.name);
        library(s.name, found_in, real ? *real : dir + "/" + e.name, s.soname_stem);
      }
  }

  // NVIDIA's wheels, in a toolkit's dist-info directory or a Python environment.
  void dist(const std::string& dist_name, const std::string& v, const std::string& source, const std::string& found_in) {
    // A metapackage's version is its library's too.
    if (const auto library = library_of_wheel(dist_name)) version(*library, found_in, v, source, kDistInfo);
  }

 private:
  std::vector<LibraryInstall>& libs() { return ctx_.facts().software.libraries; }
  std::size_t at(const std::string& name, const std::string& found_in) {
    auto& l = libs();
    for (std::size_t i = 0; i < l.size(); ++i)
      if (l[i].name == name && l[i].found_in == found_in) return i;
    l.push_back(LibraryInstall{name, std::nullopt, std::nullopt, std::nullopt, found_in});
    rank_.push_back(0);
    return l.size() - 1;
  }

  ProbeContext& ctx_;
  std::vector<int> rank_;  // parallel to the facts' libraries: how exact each version is
};

}  // namespace

void probe_gpu_libraries(ProbeContext& ctx) {
  Collector c(ctx);
  auto& h = ctx.host();
  const auto& toolkits = ctx.facts().software.toolkits;
  for (auto& t : toolkits) {
    c.headers(t.root + "/include", t.root);
    for (const char* lib : {"/lib64", "/lib", "/targets/x86_64-linux/lib", "/targets/sbsa-linux/lib"})
      c.library_dir(t.root + lib, t.root);
    if (auto entries = h.list_dir(t.root + "/dist-info"))
      for (auto& e : *entries)
        if (auto d = parse_dist_info_dir(e.name)) c.dist(d->name, d->version, t.root + "/dist-info/" + e.name, t.root);
  }
  // Distribution packages (libcudnn9-dev, libnccl-dev, TensorRT debs) put headers here.
  const std::string machine = ctx.facts().system.arch.value_or("x86_64");
  for (const std::string& dir : std::vector<std::string>{"/usr/include", "/usr/include/" + machine + "-linux-gnu"})
    c.headers(dir, "system");
  for (auto& env : ctx.facts().software.python)
    for (auto& d : env.distributions) c.dist(d.name, d.version, d.source, d.source.substr(0, d.source.rfind('/')));
  // What the system loader knows (ld.so.cache), whatever the major version;
  // a copy inside a toolkit belongs to that toolkit.
  for (auto& s : specs())
    for (auto& copy : ctx.locator().cached_with_prefix(std::string(s.soname_stem) + ".")) {
      auto real = h.real_path(copy.path);
      const std::string file = real ? *real : copy.path;
      std::string found_in = "system";
      for (auto& t : toolkits)
        if (starts_with(file, t.root + "/")) found_in = t.root;
      c.library(s.name, found_in, file, s.soname_stem);
    }
}

}  // namespace gpucheck
