// Reading a host's stack out of its facts: which GPUs, which driver, and the
// libraries as the framework will load them (the loader's resolution first,
// the installed copies second).
#include <algorithm>
#include <map>
#include <set>

#include "facts/gpu_inventory.hpp"
#include "facts/network_summary.hpp"
#include "lock/fields.hpp"
#include "lock/lockfile.hpp"
#include "util/paths.hpp"
#include "util/python_name.hpp"
#include "util/strings.hpp"
#include "util/version.hpp"

namespace gpucheck {

namespace {

using Opt = std::optional<std::string>;

std::string join_set(const std::set<std::string>& s, std::string_view sep) {
  return join(std::vector<std::string>(s.begin(), s.end()), sep);
}

Opt join_or_none(const std::set<std::string>& s) {
  if (s.empty()) return std::nullopt;
  return join_set(s, ", ");
}

// "9.0" -> "sm_90", "12.0" -> "sm_120": how framework builds name an arch.
std::string sm_name(const std::string& cc) {
  auto v = Version::parse(cc);
  if (!v) return cc;
  return "sm_" + std::to_string(v->major()) + std::to_string(v->minor());
}

struct GpuSummary {
  std::set<std::string> models, archs, sms;
  std::size_t count = 0;
  std::string source;
};

// The lock names the GPUs as the most direct source that saw any of them:
// nvidia-smi, else the CUDA driver API, else /proc/driver/nvidia, else PCI.
GpuSummary nvidia_gpus(const std::vector<InventoryGpu>& gpus) {
  GpuSummary g;
  std::size_t smi = 0, cuda = 0, proc = 0, pci = 0;
  for (const auto& x : gpus) {
    if (x.cuda && x.cuda->compute_capability) g.sms.insert(sm_name(*x.cuda->compute_capability));
    smi += x.smi != nullptr;
    cuda += x.cuda != nullptr;
    proc += x.proc != nullptr;
    pci += x.pci && x.pci->vendor == PciVendor::nvidia;
  }
  const auto count_from = [&](std::size_t n, const char* source) {
    g.count = n;
    g.source = source;
  };
  for (const auto& x : gpus) {
    if (smi) {
      if (x.smi && x.smi->product_name) g.models.insert(*x.smi->product_name);
      if (x.smi && x.smi->architecture) g.archs.insert(*x.smi->architecture);
    } else if (cuda) {
      if (x.cuda && x.cuda->name) g.models.insert(*x.cuda->name);
    } else if (proc) {
      if (x.proc && x.proc->model) g.models.insert(*x.proc->model);
    } else if (x.pci && x.pci->vendor == PciVendor::nvidia) {
      g.models.insert(x.pci->name ? *x.pci->name : x.pci->vendor_id + ":" + x.pci->device_id);
    }
  }
  if (smi) count_from(smi, "nvidia-smi");
  else if (cuda) count_from(cuda, "CUDA driver API");
  else if (proc) count_from(proc, "/proc/driver/nvidia/gpus");
  else if (pci) count_from(pci, "PCI");
  return g;
}

GpuSummary amd_gpus(const std::vector<InventoryGpu>& gpus) {
  GpuSummary g;
  std::size_t pci = 0, kfd = 0;
  for (const auto& x : gpus) {
    if (x.pci && x.pci->vendor == PciVendor::amd) {
      g.models.insert(x.pci->name ? *x.pci->name : x.pci->vendor_id + ":" + x.pci->device_id);
      ++pci;
    }
    if (x.kfd) {
      ++kfd;
      if (x.kfd->gfx_target) g.archs.insert(*x.kfd->gfx_target);
    }
  }
  g.count = std::max(pci, kfd);
  if (g.count) g.source = kfd ? "KFD topology" : "PCI";
  return g;
}

void add(Lock& lock, std::string section, std::string key, Opt value, std::string comment = {}) {
  const FieldSpec* spec = find_field(section, key);
  LockEntry e{std::move(section), std::move(key), std::move(value), spec ? spec->default_policy : Policy::exact,
              std::move(comment)};
  lock.entries.push_back(std::move(e));
}

void add_gpus(Lock& lock, const Facts& f) {
  const auto inventory = gpu_inventory(f);
  GpuSummary nv = nvidia_gpus(inventory), amd = amd_gpus(inventory);
  std::set<std::string> models = nv.models, archs = nv.archs;
  models.insert(amd.models.begin(), amd.models.end());
  archs.insert(amd.archs.begin(), amd.archs.end());
  archs.insert(nv.sms.begin(), nv.sms.end());
  std::vector<std::string> sources;
  for (const auto* g : {&nv, &amd})
    if (!g->source.empty()) sources.push_back(g->source);
  const std::string from = sources.empty() ? "no GPU found" : join(sources, ", ");
  add(lock, "gpu", "models", join_or_none(models), from);
  add(lock, "gpu", "count", std::to_string(nv.count + amd.count));
  add(lock, "gpu", "architectures", archs.empty() ? Opt{} : Opt{join_set(archs, " ")});
}

void add_driver(Lock& lock, const Facts& f) {
  Opt version;
  std::string from;
  const auto& km = f.nvidia_driver.kernel_module;
  if (km.version) {
    version = km.version;
    from = "kernel module, " + km.source;
  } else if (f.nvidia_smi && f.nvidia_smi->driver_version) {
    version = f.nvidia_smi->driver_version;
    from = "nvidia-smi";
  } else if (f.nvidia_driver.libcuda.version) {
    version = f.nvidia_driver.libcuda.version;
    from = "libcuda file name";
  }
  Opt branch;
  if (version) {
    if (auto v = Version::parse(*version)) branch = std::to_string(v->major());
  }
  add(lock, "driver", "version", version, from);
  add(lock, "driver", "branch", branch);
  Opt cuda;
  std::string cuda_from;
  if (f.cuda && f.cuda->driver_version) {
    cuda = f.cuda->driver_version;
    cuda_from = "cuDriverGetVersion";
  } else if (f.nvidia_smi && f.nvidia_smi->cuda_version) {
    cuda = f.nvidia_smi->cuda_version;
    cuda_from = "nvidia-smi";
  }
  add(lock, "driver", "cuda", cuda, cuda_from);
}

const CudaToolkit* active_toolkit(const Facts& f) {
  for (const auto& t : f.software.toolkits)
    if (t.active) return &t;
  return nullptr;
}

// The environment a job would run in: the first one holding a framework (the
// probe lists them in PATH order), else the first one.
const PythonEnv* job_env(const Facts& f) {
  for (const auto& e : f.software.python)
    if (!e.frameworks.empty()) return &e;
  return f.software.python.empty() ? nullptr : &f.software.python.front();
}

struct LibSpec {
  std::string_view name;    // the LibraryInstall name and the lock key
  std::string_view prefix;  // the sonames that belong to it
};
constexpr LibSpec kLibs[] = {
    {"cudnn", "libcudnn"}, {"nccl", "libnccl"}, {"cublas", "libcublas"}, {"tensorrt", "libnvinfer"}};

bool soname_of(std::string_view soname, std::string_view prefix) {
  if (!starts_with(soname, prefix) || soname.size() == prefix.size()) return false;
  const char next = soname[prefix.size()];
  // libcublasLt and libcudnn_graph belong to their library; libcudnnx would not.
  return next == '.' || next == '_' || (next >= 'A' && next <= 'Z');
}

bool under(std::string_view path, std::string_view dir) {
  return !dir.empty() && path.size() > dir.size() && starts_with(path, dir) && path[dir.size()] == '/';
}

// The installed copy a resolved path belongs to: the same file, a file under
// the install's root, or (for an nvidia-* wheel) the wheel's dist-info beside
// the `nvidia/` package directory in the same site-packages.
const LibraryInstall* install_of_path(const Facts& f, std::string_view lib, const std::string& path) {
  for (const auto& i : f.software.libraries) {
    if (i.name != lib || !i.version) continue;
    if (i.library && *i.library == path) return &i;
  }
  for (const auto& i : f.software.libraries) {
    if (i.name != lib || !i.version) continue;
    if (under(path, i.found_in)) return &i;
  }
  if (auto pos = path.find("/nvidia/"); pos != std::string::npos) {
    const std::string wheels = path.substr(0, pos) + "/nvidia_";
    for (const auto& i : f.software.libraries)
      if (i.name == lib && i.version && starts_with(i.found_in, wheels)) return &i;
  }
  return nullptr;
}

std::string install_source(const LibraryInstall& i) { return i.version_source.value_or(i.found_in); }

struct Loaded {
  Opt value;
  std::string comment;
  std::set<std::string> install_sources;  // the dist-info or header files the value came from
};

Loaded loaded_library(const Facts& f, const PythonEnv* env, const LibSpec& lib) {
  Loaded out;
  if (env) {
    // One process resolves a soname once: the first resolution is the one.
    std::vector<const ResolvedNeed*> needs;
    std::string owner;
    for (const auto& view : env->loader) {
      for (const auto& n : view.needed) {
        if (!soname_of(n.soname, lib.prefix)) continue;
        if (std::any_of(needs.begin(), needs.end(), [&](auto* m) { return m->soname == n.soname; })) continue;
        needs.push_back(&n);
        if (owner.empty()) owner = view.owner;
      }
    }
    std::string primary_version;
    std::set<std::string> versions;
    std::vector<std::string> notes;
    auto version_of = [&](const ResolvedNeed& n) -> Opt {
      if (n.version) return n.version;
      if (const auto* i = install_of_path(f, lib.name, *n.path)) {
        out.install_sources.insert(install_source(*i));
        return i->version;
      }
      return std::nullopt;
    };
    for (const auto* n : needs) {
      if (!n->path) {
        notes.push_back(n->soname + " not found by the loader");
        continue;
      }
      Opt v = version_of(*n);
      if (!v) continue;
      versions.insert(*v);
      const bool primary = starts_with(n->soname, std::string(lib.prefix) + ".so");
      if (primary && primary_version.empty()) primary_version = *v;
      if (primary) notes.insert(notes.begin(), n->soname + " via " + n->via.value_or("?"));
    }
    if (!versions.empty()) {
      // A mixed load (a cuDNN sub-library from LD_LIBRARY_PATH) is a fact of
      // its own: every version that would be mapped is written.
      // Grouped by where they come from: one note per directory, not per file.
      std::map<std::string, std::vector<std::string>> elsewhere;
      for (const auto* n : needs) {
        if (!n->path) continue;
        Opt v = version_of(*n);
        if (v && !primary_version.empty() && *v != primary_version)
          elsewhere[*v + " from " + dir_of(*n->path) + " via " + n->via.value_or("?")].push_back(n->soname);
      }
      for (const auto& [where, sonames] : elsewhere) {
        notes.push_back(sonames.front() +
                        (sonames.size() > 1 ? " and " + std::to_string(sonames.size() - 1) + " more" : "") + ": " +
                        where);
      }
      std::vector<std::string> ordered;
      if (!primary_version.empty()) ordered.push_back(primary_version);
      for (const auto& v : versions)
        if (v != primary_version) ordered.push_back(v);
      out.value = join(ordered, " + ");
      out.comment = "as " + owner + " loads it" + (notes.empty() ? "" : ": " + join(notes, "; "));
      return out;
    }
  }
  // No loader view with a version: the installed copy nearest the job.
  const LibraryInstall* best = nullptr;
  auto rank = [&](const LibraryInstall& i) {
    if (env)
      for (const auto& p : env->sys_path)
        if (under(i.found_in, p) || i.found_in == p) return 0;
    if (const auto* tk = active_toolkit(f); tk && (i.found_in == tk->root || under(i.found_in, tk->root))) return 1;
    return 2;
  };
  for (const auto& i : f.software.libraries) {
    if (i.name != lib.name || !i.version) continue;
    if (!best || rank(i) < rank(*best)) best = &i;
  }
  if (best) {
    out.value = best->version;
    out.install_sources.insert(install_source(*best));
    out.comment = "installed: " + install_source(*best);
  }
  return out;
}

void add_software(Lock& lock, const Facts& f) {
  const CudaToolkit* tk = active_toolkit(f);
  add(lock, "cuda", "toolkit", tk ? tk->version : Opt{},
      tk ? tk->root + (tk->active_because.empty() ? "" : " (" + join(tk->active_because, ", ") + ")") : "");

  const PythonEnv* env = job_env(f);
  // The dist-info directories a library line already checks.
  std::map<std::string, std::string> library_of_dir;
  for (const auto& lib : kLibs) {
    Loaded l = loaded_library(f, env, lib);
    for (const auto& src : l.install_sources) library_of_dir[dir_of(src)] = std::string(lib.name);
    add(lock, "libraries", std::string(lib.name), l.value, l.comment);
  }

  add(lock, "python", "version", env ? env->version : Opt{}, env ? env->interpreter : "");

  if (env) {
    std::set<std::string> seen;
    std::vector<LockEntry> frameworks;
    for (const auto& fw : env->frameworks) {
      if (!seen.insert(fw.name).second) continue;
      std::string what = fw.cpu_only ? "CPU only"
                         : fw.cuda   ? "built for CUDA " + *fw.cuda
                         : fw.hip    ? "built for ROCm/HIP " + *fw.hip
                                     : "";
      frameworks.push_back({"frameworks", fw.name, fw.version, Policy::exact, what});
    }
    std::sort(frameworks.begin(), frameworks.end(), [](auto& a, auto& b) { return a.key < b.key; });
    for (auto& e : frameworks) lock.entries.push_back(std::move(e));

    std::vector<LockEntry> wheels;
    seen.clear();
    for (const auto& d : env->distributions) {
      const std::string name = normalize_dist_name(d.name);
      if (!starts_with(name, "nvidia-") || !seen.insert(name).second) continue;
      LockEntry e{"wheels", name, d.version, Policy::exact, ""};
      if (auto it = library_of_dir.find(dir_of(d.source)); it != library_of_dir.end()) {
        // The library line already pins this version: one change, one finding.
        e.policy = Policy::ignore;
        e.comment = "checked as libraries." + it->second;
      }
      wheels.push_back(std::move(e));
    }
    std::sort(wheels.begin(), wheels.end(), [](auto& a, auto& b) { return a.key < b.key; });
    for (auto& e : wheels) lock.entries.push_back(std::move(e));
  }

  const auto& ngc = f.system.container.ngc;
  add(lock, "ngc", "framework", ngc ? ngc->framework : Opt{},
      ngc && ngc->build_id ? "NVIDIA_BUILD_ID " + *ngc->build_id : "");
  add(lock, "ngc", "release", ngc ? ngc->version : Opt{});
}

// The network stack, where the node has one: written only when known, so a
// node without RDMA or an NCCL net plugin locks (and verifies) as before.
void add_network(Lock& lock, const Facts& f) {
  const NetworkSummary n = summarize_network(f.network, true);
  const auto put = [&](const char* key, const std::optional<std::string>& v, std::string from) {
    if (v && *v != "none") add(lock, "network", key, v, std::move(from));
  };
  put("nccl_net_plugin", n.nccl_net_plugin, f.network.nccl_net_plugin ? f.network.nccl_net_plugin->found_via : "");
  put("ofed", n.ofed, f.network.ofed_source.value_or("no mlx5_core version: the kernel's driver"));
  put("rdma_firmware", n.rdma_firmware, "/sys/class/infiniband/*/fw_ver");
  put("rdma_rate", n.rdma_rate, "/sys/class/infiniband/*/ports/*/rate, ACTIVE ports");
  put("gpudirect_rdma", n.gpudirect_rdma, "");
  put("hpcx", n.hpcx, f.network.hpcx_source.value_or(""));
  put("efa_driver", n.efa_driver, f.network.efa_version ? "/sys/module/efa/version" : "no efa version: the kernel's driver");
}

}  // namespace

Lock lock_from_facts(const Facts& f, const LockContext& ctx) {
  Lock lock;
  add(lock, "lock", "gpucheck", ctx.gpucheck_version);
  add(lock, "lock", "matrix", ctx.matrix_version);
  add(lock, "lock", "check", ctx.check_verdict.value_or("not evaluated"));
  add_gpus(lock, f);
  add_driver(lock, f);
  add_software(lock, f);
  add_network(lock, f);
  return lock;
}

std::vector<PinCorrection> pin_corrections(const Facts& facts) {
  std::vector<PinCorrection> out;
  const PythonEnv* env = job_env(facts);
  if (!env) return out;
  for (const auto& d : env->distributions)
    for (const auto& r : d.requires_dist) {
      if (r.applies == false || !r.installed || r.satisfied != false || r.specifier.empty()) continue;
      out.push_back({r.name, r.specifier, d.name + " " + d.version + " pins " + r.name + r.specifier + "; this host has " + *r.installed});
    }
  return out;
}

}  // namespace gpucheck
