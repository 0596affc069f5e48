// Loader resolution: for each Python environment's
// framework objects (torch's libtorch_cuda.so, jax's CUDA plugin, …), read
// the ELF dynamic section and resolve every GPU library it needs as glibc's
// ld.so would (ld.so(8), "Description": DT_RPATH when there is no DT_RUNPATH,
// LD_LIBRARY_PATH, DT_RUNPATH, /etc/ld.so.cache, the default directories),
// without loading anything. Runs after the Python probe, whose sys_path it
// searches.
//
// Simplifications, each said where it matters:
// - DT_RPATH is that of the object itself; ld.so also searches the DT_RPATH of
//   the objects that loaded it (up to the executable). The Python interpreter
//   rarely has one, so only the object's own is used.
// - A soname already loaded by an earlier object is reused by the loader;
//   each object here is resolved on its own.
// - Hardware-capability subdirectories (glibc-hwcaps/) are not searched.
#include <algorithm>
#include <set>

#include "host/elf.hpp"
#include "host/root_fs.hpp"
#include "matrix/platform_knowledge.hpp"
#include "parse/library_name.hpp"
#include "probe.hpp"
#include "util/paths.hpp"
#include "util/strings.hpp"

namespace gpucheck {
namespace {

constexpr const char* kSubject = "loader";

// The framework objects that carry the GPU libraries' DT_NEEDED entries,
// relative to a sys.path directory. A '*' in the last component matches any
// run of characters (Python extension suffixes: ".cpython-311-x86_64-linux-gnu").
struct FrameworkObject {
  const char* owner;
  const char* rel;
};
const FrameworkObject kFrameworkObjects[] = {
    // torch ≥ 1.13: the CUDA kernels and their libraries; 1.10–1.12 split it
    // into _cu and _cpp; ROCm builds name it libtorch_hip.so.
    {"torch", "torch/lib/libtorch_cuda.so"},
    {"torch", "torch/lib/libtorch_cuda_cu.so"},
    {"torch", "torch/lib/libtorch_cuda_cpp.so"},
    {"torch", "torch/lib/libtorch_hip.so"},
    // jax ≥ 0.4.26: the PJRT plugin of jax-cuda12-plugin; older jaxlib bundled cuda/.
    {"jax", "jax_plugins/xla_cuda12/xla_cuda_plugin.so"},
    {"jax", "jax_plugins/xla_cuda13/xla_cuda_plugin.so"},
    {"jax", "jax_cuda12_plugin/_versions*.so"},
    {"jaxlib", "jaxlib/cuda/_versions*.so"},
    {"tensorflow", "tensorflow/libtensorflow_framework.so.2"},
    {"tensorflow", "tensorflow/libtensorflow_cc.so.2"},
    {"tensorflow", "tensorflow/python/_pywrap_tensorflow_internal.so"},
    {"cupy", "cupy_backends/cuda/api/runtime*.so"},
    {"cupy", "cupy/cuda/cudnn*.so"},
    {"onnxruntime", "onnxruntime/capi/libonnxruntime_providers_cuda.so"},
    {"paddlepaddle", "paddle/base/libpaddle.so"},
};

// GPU libraries, by soname prefix (matrix/libraries.json: CUDA and its math
// libraries, cuDNN, NCCL, NVTX, CUPTI, TensorRT, NVSHMEM, the driver; HIP,
// MIOpen, RCCL and ROCm's libraries).
bool is_gpu_library(std::string_view soname) {
  return std::any_of(gpu_soname_prefixes().begin(), gpu_soname_prefixes().end(), [&](const SonamePrefixes& family) {
    return std::any_of(family.prefixes.begin(), family.prefixes.end(),
                       [&](const std::string& p) { return starts_with(soname, p); });
  });
}

// cuDNN's libcudnn.so.N is a shim that dlopen()s its sub-libraries at run
// time (matrix/libraries.json, sub_libraries), so they are not DT_NEEDED
// entries of anything torch loads, yet they are where a mixed cuDNN comes
// from. The ones the package ships beside the shim are resolved as the
// shim's dlopen would.
const SubLibraries* sub_libraries_of(const std::string& shim) {
  const auto& table = sub_library_table();
  const auto it = std::find_if(table.begin(), table.end(), [&](const SubLibraries& s) { return s.shim == shim; });
  return it == table.end() ? nullptr : &*it;
}

bool glob_match(std::string_view pattern, std::string_view name) {
  const auto star = pattern.find('*');
  if (star == std::string_view::npos) return pattern == name;
  const auto head = pattern.substr(0, star), tail = pattern.substr(star + 1);
  return name.size() >= head.size() + tail.size() && name.substr(0, head.size()) == head &&
         name.substr(name.size() - tail.size()) == tail;
}

// The files `rel` names under `dir` (a glob only in the last component).
std::vector<std::string> find_objects(const Host& host, const std::string& dir, std::string_view rel) {
  const std::string full = normalize_path(dir + "/" + std::string(rel));
  if (rel.find('*') == std::string_view::npos) {
    if (host.exists(full)) return {full};
    return {};
  }
  const std::string parent = dir_of(full);
  const std::string pattern = full.substr(full.rfind('/') + 1);
  std::vector<std::string> out;
  auto listing = host.list_dir(parent);
  if (!listing) return out;
  for (auto& e : *listing)
    if (e.type == EntryType::file && glob_match(pattern, e.name)) out.push_back(parent + "/" + e.name);
  return out;
}

bool inside(const std::string& path, const std::string& dir) {
  return path.size() > dir.size() && path.compare(0, dir.size(), dir) == 0 && path[dir.size()] == '/';
}

std::vector<std::string> split_list(const std::optional<std::string>& s) {
  std::vector<std::string> out;
  if (s)
    for (auto e : split(*s, ':'))
      if (!e.empty()) out.emplace_back(e);
  return out;
}

class Resolver {
 public:
  Resolver(ProbeContext& ctx, const PythonEnv& env) : ctx_(ctx) {
    for (auto& d : env.sys_path)
      if (!d.empty() && d[0] == '/') package_dirs_.push_back(normalize_path(d));
  }

  ResolvedNeed resolve(const std::string& soname, const ObjectSearchPath& sp) {
    const auto loc = ctx_.locator().locate(soname, sp);
    ResolvedNeed n;
    n.soname = soname;
    if (loc.copies.empty()) return n;
    const auto& win = loc.copies.front();
    n.path = win.path;
    n.via = win.via;
    n.version = version_of(soname, win.path);
    for (std::size_t i = 1; i < loc.copies.size(); ++i) n.other_copies.push_back(loc.copies[i].path);
    // The package's own copy: one its RPATH/RUNPATH reaches inside the environment.
    const bool win_own = win.via == "RPATH" || win.via == "RUNPATH";
    n.shadows_bundled = !win_own && std::any_of(loc.copies.begin() + 1, loc.copies.end(), [&](const LibraryCopy& c) {
      return (c.via == "RPATH" || c.via == "RUNPATH") && in_package(c.path);
    });
    return n;
  }

  bool in_package(const std::string& path) const {
    return std::any_of(package_dirs_.begin(), package_dirs_.end(), [&](auto& d) { return inside(path, d); });
  }

  std::optional<std::string> version_of(const std::string& soname, const std::string& path) const {
    const auto so = soname.find(".so");
    if (so == std::string::npos) return std::nullopt;
    const std::string stem = soname.substr(0, so + 3);
    auto real = ctx_.host().real_path(path);
    return library_version_from_name(real ? *real : path, stem);
  }

 private:
  ProbeContext& ctx_;
  std::vector<std::string> package_dirs_;
};

std::optional<ElfDynamic> read_object(ProbeContext& ctx, const std::string& path) {
  auto dyn = read_elf_dynamic(ctx.host(), path);
  if (!dyn) {
    ctx.note(kSubject, path, dyn.problem());
    return std::nullopt;
  }
  return std::move(dyn).value();
}

ObjectSearchPath search_path(ProbeContext& ctx, const ElfDynamic& dyn, const std::string& path) {
  std::vector<std::string> unexpanded;
  auto sp = object_search_path(dyn, path, ctx.locator().machine(), &unexpanded);
  for (auto& e : unexpanded)
    ctx.note(kSubject, path,
             Problem{Reason::malformed, path,
                     std::string(dyn.runpath ? "DT_RUNPATH" : "DT_RPATH") + " entry \"" + e +
                         "\" not searched: $LIB and relative entries depend on the loader's build or the "
                         "working directory"});
  return sp;
}

LoaderView view_of(const std::string& path, const std::string& owner, const ElfDynamic& dyn) {
  LoaderView v;
  v.object = path;
  v.owner = owner;
  v.rpath = split_list(dyn.rpath);
  v.runpath = split_list(dyn.runpath);
  return v;
}

// The sub-libraries a bundled cuDNN shim opens, as its dlopen() would find
// them: the shim's DT_RUNPATH if it has one; otherwise its DT_RPATH and that
// of the framework object that loaded it (dlopen(3): the caller's DT_RPATH,
// and glibc's loader chain), then the usual order.
std::optional<LoaderView> companions_view(ProbeContext& ctx, Resolver& r, const ResolvedNeed& shim,
                                          const ElfDynamic& loader_dyn, const ObjectSearchPath& loader_sp,
                                          const std::string& owner) {
  if (!shim.path || !r.in_package(*shim.path)) return std::nullopt;
  const auto* c = sub_libraries_of(shim.soname);
  if (!c) return std::nullopt;
  auto dyn = read_object(ctx, *shim.path);
  if (!dyn) return std::nullopt;
  auto sp = search_path(ctx, *dyn, *shim.path);
  if (!dyn->runpath && !loader_dyn.runpath)
    sp.rpath.insert(sp.rpath.end(), loader_sp.rpath.begin(), loader_sp.rpath.end());
  LoaderView v = view_of(*shim.path, owner, *dyn);
  const std::string here = dir_of(*shim.path);
  for (const auto& lib : c->sonames)
    if (ctx.host().exists(here + "/" + lib)) v.needed.push_back(r.resolve(lib, sp));
  if (v.needed.empty()) return std::nullopt;
  return v;
}

}  // namespace

void probe_loader(ProbeContext& ctx) {
  for (auto& env : ctx.facts().software.python) {
    Resolver r(ctx, env);
    std::set<std::string> seen;
    std::vector<LoaderView> views;
    for (auto& dir : env.sys_path) {
      if (dir.empty() || dir[0] != '/') continue;
      for (auto& fo : kFrameworkObjects) {
        for (auto& path : find_objects(ctx.host(), dir, fo.rel)) {
          if (!seen.insert(path).second) continue;
          if (ctx.deadline().expired()) {
            ctx.note(kSubject, path, Problem{Reason::timed_out, path, "skipped: the run's --timeout was reached"});
            continue;
          }
          auto dyn = read_object(ctx, path);
          if (!dyn) continue;
          const auto sp = search_path(ctx, *dyn, path);
          LoaderView v = view_of(path, fo.owner, *dyn);
          for (auto& soname : dyn->needed)
            if (is_gpu_library(soname)) v.needed.push_back(r.resolve(soname, sp));
          std::vector<LoaderView> extra;
          for (auto& n : v.needed)
            if (auto cv = companions_view(ctx, r, n, *dyn, sp, fo.owner); cv && seen.insert(cv->object).second)
              extra.push_back(std::move(*cv));
          views.push_back(std::move(v));
          for (auto& e : extra) views.push_back(std::move(e));
        }
      }
    }
    env.loader = std::move(views);
  }
}

}  // namespace gpucheck
