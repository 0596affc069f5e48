// What a job talks to other nodes over: InfiniBand, RoCE and EFA ports
// (/sys/class/infiniband), GPUDirect RDMA's kernel module, the OFED, EFA
// and HPC-X releases, and the NCCL net plugin NCCL would load.
// docs/topology.md.
#include <set>

#include "parse/infiniband.hpp"
#include "pci_path.hpp"
#include "probe.hpp"
#include "util/strings.hpp"

namespace gpucheck {

namespace {

constexpr const char* kClass = "/sys/class/infiniband";

// The counters a failing link shows first (Documentation/ABI/stable/sysfs-class-infiniband).
constexpr const char* kCounters[] = {"symbol_error", "link_downed", "link_error_recovery", "port_rcv_errors",
                                     "local_link_integrity_errors", "excessive_buffer_overrun_errors"};

IbPort read_port(const Host& h, const std::string& dir, int number) {
  IbPort p;
  p.port = number;
  if (auto t = sysfs_attribute(h, dir + "/state")) p.state = ib_state_word(*t);
  if (auto t = sysfs_attribute(h, dir + "/phys_state")) p.phys_state = ib_state_word(*t);
  p.rate = sysfs_attribute(h, dir + "/rate");
  if (p.rate) p.rate_gbps = ib_rate_gbps(*p.rate);
  p.link_layer = sysfs_attribute(h, dir + "/link_layer");
  for (const char* c : kCounters)
    if (auto t = sysfs_attribute(h, dir + "/counters/" + c))
      if (auto n = parse_int(*t); n && *n >= 0) p.counters[c] = *n;
  return p;
}

void read_devices(ProbeContext& ctx, NetworkFacts& net) {
  const Host& h = ctx.host();
  auto devices = h.list_dir(kClass);
  if (!devices) {
    // No RDMA device registered: nothing to read, not a failure.
    if (devices.problem().reason != Reason::absent) ctx.note("network", "InfiniBand devices", devices.problem());
    return;
  }
  net.read = true;
  BridgeCache bridges;
  for (auto& e : *devices) {
    if (net.ib.size() == kMaxRdmaDevices) {
      ctx.note("network", "InfiniBand devices", Problem{Reason::malformed, kClass, "more than " + std::to_string(kMaxRdmaDevices) + " devices: the rest are not read"});
      break;
    }
    IbDevice d;
    d.name = e.name;
    const std::string dir = std::string(kClass) + "/" + e.name;
    d.source = dir;
    d.hca_type = sysfs_attribute(h, dir + "/hca_type");
    d.fw_ver = sysfs_attribute(h, dir + "/fw_ver");
    d.board_id = sysfs_attribute(h, dir + "/board_id");
    if (auto drv = h.read_link(dir + "/device/driver")) d.driver = drv->substr(drv->rfind('/') + 1);
    d.pci_address = pci_address_of(ctx, dir + "/device");
    if (auto n = sysfs_attribute(h, dir + "/device/numa_node"))
      if (auto v = parse_int(*n); v && *v >= 0 && *v < 4096) d.numa_node = static_cast<int>(*v);
    d.path = read_pci_path(ctx, "network", dir + "/device", bridges);
    if (auto ports = h.list_dir(dir + "/ports")) {
      for (auto& p : *ports)
        if (auto n = parse_int(p.name); n && *n > 0 && *n < 256) d.ports.push_back(read_port(h, dir + "/ports/" + p.name, static_cast<int>(*n)));
    } else {
      ctx.note("network", e.name + " ports", ports.problem());
    }
    net.ib.push_back(std::move(d));
  }
}

// NCCL dlopen()s its net plugin by name (src/plugin/net.cc): each entry of
// NCCL_NET_PLUGIN as given, then libnccl-net-<entry>.so; without it,
// libnccl-net.so; "none" loads none.
void read_nccl_plugins(ProbeContext& ctx, NetworkFacts& net) {
  const auto& locator = ctx.locator();
  std::set<std::string> seen;
  const auto add = [&](const LibraryCopy& c) {
    const auto slash = c.path.rfind('/');
    if (seen.insert(c.path).second) net.nccl_plugins.push_back({c.path.substr(slash + 1), c.path, c.via});
  };
  for (auto& c : locator.cached_with_prefix("libnccl-net")) add(c);
  for (auto& dir : locator.ld_library_path())
    if (auto files = ctx.host().list_dir(dir))
      for (auto& f : *files)
        if (starts_with(f.name, "libnccl-net") && f.name.find(".so") != std::string::npos) add({dir + "/" + f.name, "LD_LIBRARY_PATH"});
  std::vector<std::string> names;
  if (auto chosen = ctx.host().env("NCCL_NET_PLUGIN"); chosen && !chosen->empty()) {
    for (auto entry : split(*chosen, ',')) {
      entry = trim(entry);
      if (to_lower(entry) == "none") return;  // NCCL compares it without case
      if (entry.empty()) continue;
      names.emplace_back(entry);
      if (entry.find('/') == std::string_view::npos && !(starts_with(entry, "lib") && entry.size() > 3 && entry.substr(entry.size() - 3) == ".so"))
        names.push_back("libnccl-net-" + std::string(entry) + ".so");
    }
  } else {
    names = {"libnccl-net.so"};
  }
  for (auto& name : names) {
    if (name.find('/') != std::string::npos) {  // a path: dlopen takes it as it is
      if (!ctx.host().exists(name)) continue;
      net.nccl_net_plugin = NcclPlugin{name.substr(name.rfind('/') + 1), name, "NCCL_NET_PLUGIN"};
      add({name, "NCCL_NET_PLUGIN"});
      break;
    }
    const auto where = locator.locate(name);
    if (where.copies.empty()) continue;
    const auto& c = where.copies.front();
    net.nccl_net_plugin = NcclPlugin{name, c.path, c.via};
    add(c);
    break;
  }
}

// "hpcx-v2.17.1-gcc-mlnx_ofed-ubuntu22.04-cuda12-x86_64" -> "2.17.1", as
// NVIDIA names its packages (docs.nvidia.com/networking, "Installing and
// Loading HPC-X"); "HPC-X v2.20", the first line of its VERSION file, -> "2.20".
std::optional<std::string> hpcx_release(std::string_view s) {
  for (std::string_view prefix : {"hpcx-v", "HPC-X v"}) {
    if (!starts_with(s, prefix)) continue;
    auto v = s.substr(prefix.size());
    v = v.substr(0, v.find_first_not_of("0123456789."));
    if (!v.empty() && v.front() != '.' && v.find('.') != std::string_view::npos) return std::string(v);
  }
  return std::nullopt;
}

// HPC-X where its init script (HPCX_HOME, HPCX_DIR) or NGC's images
// (/opt/hpcx) put it: the release its VERSION file names, else its
// directory's name, else the name of what /opt/hpcx links to.
void read_hpcx(ProbeContext& ctx, NetworkFacts& net) {
  const Host& h = ctx.host();
  std::vector<std::pair<std::string, std::string>> dirs;  // directory, how it was found
  for (const char* var : {"HPCX_HOME", "HPCX_DIR"})
    if (auto d = h.env(var); d && !d->empty() && d->front() == '/') dirs.emplace_back(*d, var);
  dirs.emplace_back("/opt/hpcx", "/opt/hpcx");
  for (auto& [dir, via] : dirs) {
    if (!h.exists(dir)) continue;
    if (auto text = h.read_file(dir + "/VERSION", 4096))
      if (auto v = hpcx_release(trim(text->substr(0, text->find('\n'))))) {
        net.hpcx_version = v;
        net.hpcx_source = dir + "/VERSION";
        return;
      }
    auto real = h.real_path(dir);
    const std::string name = real ? real->substr(real->rfind('/') + 1) : dir.substr(dir.rfind('/') + 1);
    if (auto v = hpcx_release(name)) {
      net.hpcx_version = v;
      net.hpcx_source = (real ? *real : dir) + (via == dir ? "" : " (" + via + ")");
      return;
    }
  }
}

}  // namespace

void probe_network(ProbeContext& ctx) {
  NetworkFacts net;
  read_devices(ctx, net);
  const Host& h = ctx.host();
  // Where NCCL looks for them (src/transport/net_ib/gdr.cc): the driver's
  // module, then Mellanox's older one.
  if (h.exists("/sys/module/nvidia_peermem/version")) net.peermem = "nvidia_peermem";
  else if (h.exists("/sys/kernel/mm/memory_peers/nv_mem/version") || h.exists("/sys/kernel/mm/memory_peers/nv_mem_nc/version"))
    net.peermem = "nv_peer_mem";
  // MLNX_OFED and DOCA-OFED stamp mlx5_core with their release; the
  // kernel's own driver has no such file, or its kernel release in it.
  if (auto v = sysfs_attribute(h, "/sys/module/mlx5_core/version")) {
    const auto u = h.uname();
    if (!u || *v != u->release) {
      net.ofed_version = *v;
      net.ofed_source = "/sys/module/mlx5_core/version";
    }
  }
  // AWS's own build of the EFA driver stamps its release ("2.13.1g").
  net.efa_version = sysfs_attribute(h, "/sys/module/efa/version");
  read_hpcx(ctx, net);
  read_nccl_plugins(ctx, net);
  ctx.facts().network = std::move(net);
}

}  // namespace gpucheck
