// Merging what the blocks of a paste read. A value stated once is taken; a
// value stated again the same way (or more exactly: "12.1" then "12.1.105",
// a table's "NVIDIA GeForce RTX 3..." then the full name) adds nothing; a
// value stated differently is a conflict: the facts keep the first, and the
// conflict keeps both with their lines, for the report and its finding
// (rules/report_conflicts.cpp). Linear in the facts of each block, except
// GPUs and packages, matched by key.
#include <algorithm>
#include <unordered_map>

#include "facts/fact_limits.hpp"
#include "importers/block_util.hpp"
#include "importers/paste.hpp"
#include "util/python_name.hpp"
#include "util/strings.hpp"

namespace gpucheck {

namespace {

// "12.1" and "12.1.105": the shorter is the longer, less exactly.
bool dotted_prefix(std::string_view a, std::string_view b) {
  if (a.size() > b.size()) std::swap(a, b);
  return starts_with(b, a) && (b.size() == a.size() || b[a.size()] == '.' || b[a.size()] == '+' || b[a.size()] == '-');
}

// nvidia-smi's table cuts long names: "NVIDIA GeForce RTX 3...".
bool cut_name(std::string_view a, std::string_view b) {
  if (a.size() > b.size()) std::swap(a, b);
  if (!ends_with(a, "...")) return false;
  return starts_with(b, a.substr(0, a.size() - 3));
}

bool same(std::string_view a, std::string_view b) {
  a = trim(a);
  b = trim(b);
  return a == b || dotted_prefix(a, b) || cut_name(a, b);
}

class Merger {
 public:
  Merger(Facts& into, std::map<std::string, std::string>& where, BlockFacts& from, std::vector<ReportConflict>& conflicts,
         std::string block_source)
      : into_(into), where_(where), from_(from), conflicts_(conflicts), block_(std::move(block_source)) {}

  // The source of `path` in the block merged, else `fallback`, else the block's span.
  std::string from_source(const std::string& path, const std::string& fallback = {}) const {
    if (auto it = from_.where.find(path); it != from_.where.end()) return it->second;
    return fallback.empty() ? block_ : fallback;
  }
  std::string into_source(const std::string& path, const std::string& fallback) const {
    if (auto it = where_.find(path); it != where_.end()) return it->second;
    return fallback;
  }

  void conflict(const std::string& fact, const std::string& a, const std::string& a_src, const std::string& b,
                const std::string& b_src) {
    for (auto& c : conflicts_)
      if (c.fact == fact) {
        bool seen = false;
        for (auto& v : c.values) seen = seen || v.value == b;
        if (!seen) c.values.push_back(ReportStatement{b, b_src});
        return;
      }
    conflicts_.push_back(ReportConflict{fact, {ReportStatement{a, a_src}, ReportStatement{b, b_src}}});
  }

  // One value: taken when absent, made more exact when the same, else a conflict.
  template <class T>
  void scalar(std::optional<T>& a, const std::optional<T>& b, const std::string& path, const std::string& a_fallback,
              const std::string& b_fallback) {
    if (!b) return;
    if (!a) {
      a = b;
      where_[path] = from_source(path, b_fallback);
      return;
    }
    if constexpr (std::is_same_v<T, std::string>) {
      if (same(*a, *b)) {
        if (b->size() > a->size() && !ends_with(*b, "...")) a = b;
        return;
      }
      conflict(path, *a, into_source(path, a_fallback), *b, from_source(path, b_fallback));
    } else {
      if (*a == *b) return;
      conflict(path, to_text(*a), into_source(path, a_fallback), to_text(*b), from_source(path, b_fallback));
    }
  }

  void run() {
    system();
    into_.pci.insert(into_.pci.end(), from_.facts.pci.begin(), from_.facts.pci.end());
    driver();
    cuda();
    smi();
    into_.services.insert(into_.services.end(), from_.facts.services.begin(), from_.facts.services.end());
    auto& log = from_.facts.kernel_log;
    if (log.read) {
      into_.kernel_log.read = true;
      if (into_.kernel_log.source.empty()) into_.kernel_log.source = log.source;
      into_.kernel_log.xid_events.insert(into_.kernel_log.xid_events.end(), log.xid_events.begin(), log.xid_events.end());
    }
    software();
    links();
    into_.notes.insert(into_.notes.end(), from_.facts.notes.begin(), from_.facts.notes.end());
  }

 private:
  static std::string to_text(bool b) { return b ? "true" : "false"; }
  template <class N>
  static std::string to_text(N n) {
    return std::to_string(n);
  }

  // RDMA devices: each block's are its own (lspci's NICs, whose ports it
  // does not show, leave the network unread). NVLinks: a GPU that `nvlink -s`
  // and `nvlink -e` both list is one GPU, its links joined by number (the
  // state from one, the counters from the other).
  void links() {
    auto& net = from_.facts.network;
    into_.network.read |= net.read;
    for (auto& d : net.ib)
      if (into_.network.ib.size() < kMaxRdmaDevices) into_.network.ib.push_back(d);
    // The plugin an NCCL_DEBUG log says NCCL loaded: the first log's stands.
    if (net.nccl_net_plugin && !into_.network.nccl_net_plugin) into_.network.nccl_net_plugin = net.nccl_net_plugin;
    if (auto& l = from_.facts.nvlink) {
      if (!into_.nvlink) into_.nvlink = NvLinkFacts{{}, l->source};
      auto& gpus = into_.nvlink->gpus;
      std::unordered_map<std::string, std::size_t> at;
      for (std::size_t i = 0; i < gpus.size(); ++i) at.emplace(gpus[i].pci_bus_id, i);
      for (auto& g : l->gpus) {
        auto it = at.find(g.pci_bus_id);
        if (it == at.end()) {
          if (gpus.size() < kMaxGpusPerNode) gpus.push_back(g);
          continue;
        }
        join_links(gpus[it->second], g);
      }
    }
  }

  // Each GPU has at most 64 links: the pairwise search stays small.
  static void join_links(GpuNvLinks& a, const GpuNvLinks& b) {
    for (auto& lb : b.links) {
      auto la = std::find_if(a.links.begin(), a.links.end(), [&](const NvLink& x) { return x.link == lb.link; });
      if (la == a.links.end()) {
        if (a.links.size() < 64) a.links.push_back(lb);
        continue;
      }
      if (!la->state_read && lb.state_read) {
        la->active = lb.active;
        la->state_read = true;
      }
      for (auto [dst, src] : {std::pair{&la->replay, &lb.replay}, {&la->recovery, &lb.recovery}, {&la->crc_flit, &lb.crc_flit},
                              {&la->crc_data, &lb.crc_data}})
        if (!*dst) *dst = *src;
      if (!la->version) la->version = lb.version;
      if (!la->remote_pci) la->remote_pci = lb.remote_pci;
    }
  }

  void system() {
    auto& a = into_.system;
    auto& b = from_.facts.system;
    scalar(a.hostname, b.hostname, "system.hostname", block_, block_);
    scalar(a.kernel_release, b.kernel_release, "system.kernel_release", block_, block_);
    scalar(a.arch, b.arch, "system.arch", a.os.source, b.os.source);
    if (!a.os.pretty_name) {
      if (b.os.pretty_name) a.os = b.os;
    } else if (b.os.pretty_name && !same(*a.os.pretty_name, *b.os.pretty_name)) {
      conflict("system.os.pretty_name", *a.os.pretty_name, a.os.source, *b.os.pretty_name, b.os.source);
    }
  }

  void driver() {
    auto& a = into_.nvidia_driver;
    auto& b = from_.facts.nvidia_driver;
    if (b.kernel_module.version) {
      if (!a.kernel_module.version) {
        a.kernel_module = b.kernel_module;
      } else if (!same(*a.kernel_module.version, *b.kernel_module.version)) {
        conflict("nvidia_driver.kernel_module.version", *a.kernel_module.version, a.kernel_module.source, *b.kernel_module.version,
                 b.kernel_module.source);
      }
    }
    a.kernel_module_loaded = a.kernel_module_loaded || b.kernel_module_loaded;
    if (b.libcuda.path || b.libcuda.version) {
      if (!a.libcuda.path && !a.libcuda.version) {
        a.libcuda = b.libcuda;
        for (auto* k : {"nvidia_driver.libcuda.path", "nvidia_driver.libcuda.version"})
          if (auto it = from_.where.find(k); it != from_.where.end()) where_[k] = it->second;
      } else {
        scalar(a.libcuda.version, b.libcuda.version, "nvidia_driver.libcuda.version", block_, block_);
      }
    }
    a.gpus.insert(a.gpus.end(), b.gpus.begin(), b.gpus.end());
  }

  void cuda() {
    auto& b = from_.facts.cuda;
    if (!b) return;
    if (!into_.cuda) {
      into_.cuda = CudaDriverApiFacts{};
      into_.cuda->library = b->library;
      into_.cuda->init_code = b->init_code;
      into_.cuda->init_name = b->init_name;
      into_.cuda->init_message = b->init_message;
    }
    auto& a = *into_.cuda;
    scalar(a.driver_version, b->driver_version, "cuda_driver_api.driver_version", block_, block_);
    for (auto& d : b->devices) {
      CudaDevice* partner = nullptr;
      for (auto& x : a.devices)
        if ((d.name && x.name && same(*d.name, *x.name)) || (d.pci_bus_id && x.pci_bus_id == d.pci_bus_id && (!d.name || !x.name)))
          partner = &x;
      if (!partner) {
        a.devices.push_back(d);
        a.devices.back().ordinal = static_cast<int>(a.devices.size() - 1);
        continue;
      }
      if (!partner->name) partner->name = d.name;
      const std::string path = "cuda_driver_api.devices.compute_capability";
      scalar(partner->compute_capability, d.compute_capability, path, block_, block_);
    }
  }

  // The partner of GPU `g` among `into`'s: the same UUID, the same bus id,
  // or the same index where one side numbers GPUs by their report index.
  SmiGpu* partner(std::vector<SmiGpu>& gpus, std::size_t before, const SmiGpu& g) {
    for (std::size_t i = 0; i < before; ++i)
      if (gpus[i].uuid && g.uuid && *gpus[i].uuid == *g.uuid) return &gpus[i];
    for (std::size_t i = 0; i < before; ++i)
      if (gpus[i].pci_bus_id == g.pci_bus_id) return &gpus[i];
    if (starts_with(g.pci_bus_id, "report:GPU")) {
      const auto n = parse_int(g.pci_bus_id.substr(10));
      if (n && *n >= 0 && static_cast<std::size_t>(*n) < before && !starts_with(gpus[*n].pci_bus_id, "report:GPU") &&
          !(gpus[*n].uuid && g.uuid))
        return &gpus[*n];
      return nullptr;
    }
    // A real bus id takes the report's index at its own position.
    for (std::size_t i = 0; i < before; ++i)
      if (gpus[i].pci_bus_id == "report:GPU" + std::to_string(i) && !(gpus[i].uuid && g.uuid)) return &gpus[i];
    return nullptr;
  }

  void smi() {
    auto& b = from_.facts.nvidia_smi;
    if (!b) return;
    if (!into_.nvidia_smi) {
      into_.nvidia_smi = std::move(b);
      for (auto* k : {"nvidia_smi.driver_version", "nvidia_smi.cuda_version"})
        if (auto it = from_.where.find(k); it != from_.where.end()) where_[k] = it->second;
      return;
    }
    auto& a = *into_.nvidia_smi;
    scalar(a.driver_version, b->driver_version, "nvidia_smi.driver_version", a.source, b->source);
    scalar(a.cuda_version, b->cuda_version, "nvidia_smi.cuda_version", a.source, b->source);
    if (!a.dtd) a.dtd = b->dtd;
    // Partners are the GPUs of the blocks before: one block lists each GPU once.
    const std::size_t before = a.gpus.size();
    for (auto& g : b->gpus) {
      SmiGpu* x = partner(a.gpus, before, g);
      if (!x) {
        a.gpus.push_back(g);
        continue;
      }
      // A real bus id replaces the report's index.
      if (starts_with(x->pci_bus_id, "report:GPU") && !starts_with(g.pci_bus_id, "report:GPU")) x->pci_bus_id = g.pci_bus_id;
      const std::string gpu = "nvidia_smi.gpus[" + x->pci_bus_id + "]";
      scalar(x->product_name, g.product_name, gpu + ".product_name", a.source, b->source);
      scalar(x->uuid, g.uuid, gpu + ".uuid", a.source, b->source);
      scalar(x->memory_total_mib, g.memory_total_mib, gpu + ".memory_total_mib", a.source, b->source);
      scalar(x->mig_mode_current, g.mig_mode_current, gpu + ".mig_mode_current", a.source, b->source);
      for (auto [dst, src] : {std::pair{&x->persistence_mode, &g.persistence_mode}, {&x->compute_mode, &g.compute_mode},
                              {&x->ecc_mode_current, &g.ecc_mode_current}, {&x->vbios, &g.vbios}, {&x->serial, &g.serial},
                              {&x->product_brand, &g.product_brand}, {&x->architecture, &g.architecture}})
        if (!*dst) *dst = *src;
      if (!x->power_limit_w) x->power_limit_w = g.power_limit_w;
      if (!x->temperature_c) x->temperature_c = g.temperature_c;
    }
  }

  void software() {
    auto& a = into_.software;
    auto& b = from_.facts.software;
    // Each list is matched against the blocks before this one only: one
    // block states each of its items once.
    const std::size_t toolkits_before = a.toolkits.size(), libraries_before = a.libraries.size();
    for (auto& t : b.toolkits) {
      CudaToolkit* active = nullptr;
      if (t.kind == "report" && t.active)
        for (std::size_t i = 0; i < toolkits_before; ++i)
          if (a.toolkits[i].kind == "report" && a.toolkits[i].active) active = &a.toolkits[i];
      if (!active) {
        a.toolkits.push_back(t);
        continue;
      }
      const std::string path = "software.toolkits.active.version";
      scalar(active->version, t.version, path, active->version_source.value_or(block_), t.version_source.value_or(block_));
      if (!active->nvcc) active->nvcc = t.nvcc;
    }
    for (auto& l : b.libraries) {
      bool merged = false;
      for (std::size_t i = 0; i < libraries_before; ++i) {
        auto& x = a.libraries[i];
        if (x.name != l.name || x.found_in != l.found_in || (x.library && l.library && *x.library != *l.library)) continue;
        scalar(x.version, l.version, "software.libraries." + l.name + " (" + l.found_in + ")", x.version_source.value_or(block_),
               l.version_source.value_or(block_));
        merged = true;
        break;
      }
      if (!merged) a.libraries.push_back(l);
    }
    for (auto& p : b.python) python(p);
    auto& ra = a.rocm;
    auto& rb = b.rocm;
    for (auto& i : rb.installs) {
      bool seen = false;
      for (auto& x : ra.installs) seen = seen || (x.version && i.version && same(*x.version, *i.version));
      if (!seen) ra.installs.push_back(i);
    }
    scalar(ra.amdgpu_module_version, rb.amdgpu_module_version, "software.rocm.amdgpu_module_version", block_, block_);
    scalar(ra.hip_version, rb.hip_version, "software.rocm.hip_version", block_, block_);
    if (!ra.smi) ra.smi = rb.smi;
    const std::size_t nodes_before = ra.gpu_nodes.size();
    for (auto& n : rb.gpu_nodes) {
      KfdNode* x = nullptr;
      for (std::size_t i = 0; i < nodes_before; ++i)
        if (ra.gpu_nodes[i].node == n.node) x = &ra.gpu_nodes[i];
      if (!x) {
        ra.gpu_nodes.push_back(n);
        continue;
      }
      const std::string node = "software.rocm.gpu_nodes[" + std::to_string(n.node) + "]";
      scalar(x->gfx_target, n.gfx_target, node + ".gfx_target", x->source, n.source);
      scalar(x->name, n.name, node + ".name", x->source, n.source);
      scalar(x->device_id, n.device_id, node + ".device_id", x->source, n.source);
      if (!x->simd_count) x->simd_count = n.simd_count;
      if (!x->vram_bytes) x->vram_bytes = n.vram_bytes;
    }
    env(ra.env, rb.env, "software.rocm.env.");
    env(a.gpu_env, b.gpu_env, "software.gpu_env.");
  }

  void env(std::map<std::string, std::string>& a, const std::map<std::string, std::string>& b, const std::string& prefix) {
    for (auto& [k, v] : b) {
      std::optional<std::string> mine = a.count(k) ? std::optional<std::string>(a[k]) : std::nullopt;
      scalar(mine, std::optional<std::string>(v), prefix + k, block_, block_);
      a[k] = *mine;
    }
  }

  void python(PythonEnv& p) {
    auto& py = into_.software.python;
    if (py.empty()) {
      py.push_back(std::move(p));
      if (auto it = from_.where.find("python.version"); it != from_.where.end()) where_["python.version"] = it->second;
      return;
    }
    auto& a = py.front();
    scalar(a.version, p.version, "python.version", block_, block_);
    for (auto& v : p.found_via)
      if (std::find(a.found_via.begin(), a.found_via.end(), v) == a.found_via.end()) a.found_via.push_back(v);
    a.distributions.reserve(a.distributions.size() + p.distributions.size());  // the map's pointers stay valid
    std::unordered_map<std::string, Distribution*> dists;
    for (auto& d : a.distributions) dists.emplace(normalize_dist_name(d.name) + "/" + d.installer, &d);
    for (auto& d : p.distributions) {
      const auto key = normalize_dist_name(d.name) + "/" + d.installer;
      auto it = dists.find(key);
      if (it == dists.end()) {
        a.distributions.push_back(d);
        continue;
      }
      std::optional<std::string> mine = it->second->version, theirs = d.version;
      scalar(mine, theirs, "python.distributions." + normalize_dist_name(d.name), it->second->source, d.source);
      it->second->version = *mine;
    }
    for (auto& f : p.frameworks) {
      FrameworkBuild* x = nullptr;
      for (auto& y : a.frameworks)
        if (y.name == f.name) x = &y;
      if (!x) {
        a.frameworks.push_back(f);
        continue;
      }
      if (x->version.empty()) {
        x->version = f.version;
        x->source = f.source;
      } else if (!f.version.empty() && !same(x->version, f.version)) {
        conflict("python.frameworks." + f.name + ".version", x->version, x->source, f.version, f.source);
      }
      scalar(x->cuda, f.cuda, "python.frameworks." + f.name + ".cuda", x->source, f.source);
      scalar(x->hip, f.hip, "python.frameworks." + f.name + ".hip", x->source, f.source);
      scalar(x->cudnn, f.cudnn, "python.frameworks." + f.name + ".cudnn", x->source, f.source);
      if (!x->local_tag) x->local_tag = f.local_tag;
      if (!x->git_version) x->git_version = f.git_version;
      x->cpu_only = (x->cpu_only || f.cpu_only) && !x->cuda && !x->hip;
    }
    a.loader.insert(a.loader.end(), p.loader.begin(), p.loader.end());
    if (p.deep) {
      if (!a.deep) {
        a.deep = p.deep;
        return;
      }
      for (auto& d : p.deep->frameworks) {
        DeepFramework* x = nullptr;
        for (auto& y : a.deep->frameworks)
          if (y.name == d.name) x = &y;
        if (!x) {
          a.deep->frameworks.push_back(d);
          continue;
        }
        const std::string path = "python.deep." + d.name;
        scalar(x->version, d.version, path + ".version", block_, block_);
        scalar(x->cuda_available, d.cuda_available, path + ".cuda_available", block_, block_);
        scalar(x->device_count, d.device_count, path + ".device_count", block_, block_);
        scalar(x->cudnn_version, d.cudnn_version, path + ".cudnn_version", block_, block_);
        scalar(x->bf16_supported, d.bf16_supported, path + ".bf16_supported", block_, block_);
        if (x->arch_list.empty()) x->arch_list = d.arch_list;
      }
    }
  }

  Facts& into_;
  std::map<std::string, std::string>& where_;
  BlockFacts& from_;
  std::vector<ReportConflict>& conflicts_;
  std::string block_;
};

}  // namespace

void add_statement(std::vector<ReportStatement>& to, const ReportStatement& statement) {
  if (std::none_of(to.begin(), to.end(), [&](const ReportStatement& s) { return s.value == statement.value; })) to.push_back(statement);
}

void merge_block_facts(Facts& into, std::map<std::string, std::string>& into_where, BlockFacts&& from,
                       std::vector<ReportConflict>& conflicts, const std::string& block_source) {
  Merger(into, into_where, from, conflicts, block_source).run();
}

}  // namespace gpucheck
