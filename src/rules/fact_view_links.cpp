// The links' facts: peer-to-peer paths through PCIe switches and their
// ACS, the IOMMU, degraded links above the GPUs and NICs, NVLink per GPU,
// the RDMA ports and GPUDirect RDMA, and which NIC is near which GPU.
// docs/topology.md explains each.
#include <algorithm>
#include <map>
#include <set>

#include "rules/fact_view_parts.hpp"
#include "util/memory_size.hpp"
#include "util/pci_address.hpp"
#include "util/strings.hpp"

namespace gpucheck::fact_view {

namespace {

// What sits at the bottom of a PCIe path: a GPU (or NVSwitch) or a NIC.
struct Endpoint {
  std::string name;  // "GPU 0000:19:00.0", "mlx5_0"
  const PciPath* path;
  bool gpu;
};

std::vector<Endpoint> endpoints(const Facts& f) {
  std::vector<Endpoint> out;
  for (auto& d : f.pci)
    if (d.path.host_bridge && d.kind == PciKind::gpu) out.push_back({"GPU " + d.address, &d.path, true});
  for (auto& d : f.network.ib)
    if (d.path.host_bridge) out.push_back({d.name, &d.path, false});
  return out;
}

// The endpoints below a bridge, and whether a GPU is among them.
struct Below {
  std::vector<const Endpoint*> eps;
  bool gpu = false;
};
using Tree = std::map<std::string, Below>;

// Linear in the paths' total length (each at most kMaxPciPathBridges).
Tree below(const std::vector<Endpoint>& eps) {
  Tree out;
  for (auto& e : eps)
    for (auto& b : e.path->bridges) {
      auto& x = out[b.address];
      x.eps.push_back(&e);
      x.gpu |= e.gpu;
    }
  return out;
}

const Below kNone;
const Below& under_of(const Tree& t, const std::string& bridge) {
  auto it = t.find(bridge);
  return it == t.end() ? kNone : it->second;
}

// "GPU 0000:19:00.0 + mlx5_0": one item of a list fact, so no commas; the
// first eight, then how many more.
std::string names_of(const Below& b) {
  std::vector<std::string> n;
  for (std::size_t i = 0; i < b.eps.size() && i < 8; ++i) n.push_back(b.eps[i]->name);
  std::string out = join(n, " + ");
  if (b.eps.size() > 8) out += " + " + std::to_string(b.eps.size() - 8) + " more";
  return out;
}

// A port below a PCIe switch (not the root port) with a peer beside it: its
// parent has endpoints below it that are not below this port, and a GPU
// among them. Peer-to-peer traffic between them turns at the switch, unless
// ACS sends it up to the root complex. A dual-port NIC alone under a port
// has no peer there.
// Where the PCIe paths were read: sysfs on a host, lspci's lines in a paste.
std::string paths_source(const Facts& f, std::string_view sysfs) {
  return f.report ? f.report->name + " (lspci -vvv)" : std::string(sysfs);
}

void acs_facts(const Facts& f, const std::vector<Endpoint>& eps, const Tree& under, FactMap& host) {
  // By switch (the shared parent), in order of first sight: its redirecting ports and their ACS words.
  std::vector<std::string> switches;
  std::map<std::string, std::pair<std::vector<std::string>, std::set<std::string>>> redirecting;
  std::vector<std::string> unread;
  std::set<std::string> seen;
  std::size_t on_paths = 0;
  for (auto& e : eps) {
    const auto& br = e.path->bridges;
    for (std::size_t i = 2; i < br.size(); ++i) {
      const auto& parent = under_of(under, br[i - 1].address);
      if (!parent.gpu || parent.eps.size() <= under_of(under, br[i].address).eps.size() || !seen.insert(br[i].address).second)
        continue;
      ++on_paths;
      const auto& b = br[i];
      if (b.acs == AcsRead::not_shown) {
        unread.push_back(b.address);
      } else if (b.acs_control && acs_redirects_p2p(*b.acs_control)) {
        auto& [ports, words] = redirecting[br[i - 1].address];
        if (ports.empty()) switches.push_back(br[i - 1].address);
        ports.push_back(b.address);
        words.insert(join(acs_words(*b.acs_control), " "));
      }
    }
  }
  std::vector<std::string> redirect;
  for (auto& sw : switches) {
    const auto& [ports, words] = redirecting.at(sw);
    redirect.push_back("switch " + sw + " (port" + (ports.size() > 1 ? "s " : " ") + join(ports, " ") + ": ACSCtl " +
                       join(std::vector<std::string>(words.begin(), words.end()), " / ") + ") above " + names_of(under_of(under, sw)));
  }
  if (on_paths == 0) return;
  const std::string src = paths_source(f, "/sys/devices/pci*/…/config (ACS control)");
  host["p2p.switch_ports"] = F::of_number(static_cast<double>(on_paths), paths_source(f, "/sys/devices/pci* (PCIe paths)"));
  if (!unread.empty()) host["p2p.acs_unread"] = F::of_list(unread, src);
  // Unknown while a port on a peer path could not be read: no "none" on half a reading.
  if (!redirect.empty() || unread.empty()) host["p2p.acs_redirect"] = F::of_list(redirect, src);
}

// The IOMMU translates peer-to-peer addresses when a GPU's group has a DMA
// domain; "identity" is passthrough; no unit at all is no IOMMU.
void iommu_facts(const Facts& f, FactMap& host) {
  std::set<std::string> types;
  for (auto& d : f.pci)
    if (d.kind == PciKind::gpu && d.path.iommu_type) types.insert(*d.path.iommu_type);
  const std::string src = "/sys/kernel/iommu_groups/*/type";
  if (types.count("DMA") || types.count("DMA-FQ")) {
    host["iommu.translating"] = F::of_bool(true, src);
    host["iommu.mode"] = F::of_text("translated: iommu_group type " + join(std::vector<std::string>(types.begin(), types.end()), ", "), src);
  } else if (!types.empty()) {
    host["iommu.translating"] = F::of_bool(false, src);
    host["iommu.mode"] = F::of_text("not translated: iommu_group type " + join(std::vector<std::string>(types.begin(), types.end()), ", "), src);
  } else if (f.iommu.read && f.iommu.units.empty() && !f.report) {
    host["iommu.translating"] = F::of_bool(false, f.iommu.source);
    host["iommu.mode"] = F::of_text("off: no IOMMU unit", f.iommu.source);
  } else if (std::any_of(f.iommu.cmdline.begin(), f.iommu.cmdline.end(),
                         [](const std::string& w) { return w == "iommu=pt" || w == "iommu.passthrough=1"; })) {
    // Kernels before 5.11 have no group type: passthrough is on the command line.
    host["iommu.translating"] = F::of_bool(false, "/proc/cmdline");
    host["iommu.mode"] = F::of_text("not translated: passthrough on the kernel command line", "/proc/cmdline");
  } else {
    host["iommu.mode"] = F::of_text(f.report ? "not shown in the paste (its IOMMU groups' type, or the kernel command line)"
                                             : "unknown: no IOMMU group type, unit or command line read",
                                    f.report ? f.report->name : f.iommu.source);
  }
  if (!f.iommu.cmdline.empty()) host["iommu.cmdline"] = F::of_list(f.iommu.cmdline, "/proc/cmdline");
}

// A link above a GPU or NIC narrower than both its ends can train: the
// path alternates a downstream-facing port (root port, switch downstream
// port) and the upstream-facing end below it (switch upstream port, the
// device), so the links are the pairs (0,1), (2,3), …; the device's own
// link is judged on the GPU (pcie-width-degraded). Width only: a link's
// speed drops when idle.
void degraded_link_facts(const Facts& f, const std::vector<Endpoint>& eps, const Tree& under, FactMap& host) {
  std::vector<std::string> degraded;
  std::set<std::string> seen;
  std::size_t compared = 0;
  for (auto& e : eps) {
    const auto& br = e.path->bridges;
    if (br.size() % 2 == 0) continue;  // not root port / switch pairs: no telling which ends face each other
    for (std::size_t up = 1; up < br.size(); up += 2) {
      const auto& a = br[up - 1].link;
      const auto& b = br[up].link;
      if (!a.max_width || !b.max_width || !b.current_width) continue;
      const int can = std::min(*a.max_width, *b.max_width);
      ++compared;
      if (*b.current_width >= can || !seen.insert(br[up].address).second) continue;
      std::string text = br[up - 1].address;
      text.append(" - ").append(br[up].address).append(" at ").append(lanes_text(*b.current_width));
      text.append(" of ").append(lanes_text(can)).append(" (above ").append(names_of(under_of(under, br[up].address))).append(")");
      degraded.push_back(std::move(text));
    }
  }
  // "None" only where a link was compared.
  if (compared) host["pcie.degraded_links"] = F::of_list(degraded, paths_source(f, "/sys/devices/pci*/…/{current,max}_link_width"));
}

bool counted(const NvLink& l) {
  return l.replay.value_or(0) || l.recovery.value_or(0) || l.crc_flit.value_or(0) || l.crc_data.value_or(0);
}

void nvlink_facts(const Facts& f, std::vector<FactMap>& gpu_maps, FactMap& host) {
  if (!f.nvlink) return;
  std::map<std::string, const GpuNvLinks*> by_bus;
  for (auto& g : f.nvlink->gpus) by_bus[normalize_pci_bus_id(g.pci_bus_id)] = &g;
  const std::string& src = f.nvlink->source;
  double most = -1;
  for (auto& gm : gpu_maps) {
    auto it = by_bus.find(normalize_pci_bus_id(gm.at("gpu.address").text));
    if (it == by_bus.end() || it->second->links.empty()) continue;
    std::vector<std::string> down, errors;
    std::size_t active = 0, known = 0;
    for (auto& l : it->second->links) {
      // A pasted nvlink -e counts errors without saying whether the link is up.
      if (l.state_read) {
        ++known;
        if (l.active) ++active;
        else down.push_back("link " + std::to_string(l.link));
      }
      if (counted(l))
        errors.push_back("link " + std::to_string(l.link) + ": replay " + std::to_string(l.replay.value_or(0)) + ", recovery " +
                         std::to_string(l.recovery.value_or(0)) + ", CRC flit " + std::to_string(l.crc_flit.value_or(0)) +
                         ", CRC data " + std::to_string(l.crc_data.value_or(0)));
    }
    gm["gpu.nvlink_errors"] = F::of_list(errors, src);
    if (!known) continue;
    gm["gpu.nvlink_links"] = F::of_number(static_cast<double>(known), src);
    gm["gpu.nvlink_active"] = F::of_number(static_cast<double>(active), src);
    gm["gpu.nvlink_inactive"] = F::of_list(down, src);
    most = std::max(most, static_cast<double>(active));
  }
  if (most >= 0) host["nvlink.active_most"] = F::of_number(most, src);
}

std::string port_name(const IbDevice& d, const IbPort& p) { return d.name + " port " + std::to_string(p.port); }

// Ports compared with their peers: the same HCA model on the same link
// layer. A port down beside active peers is a cable, transceiver or switch
// port; one slower than its peers trained down. EFA's ports are left out:
// their driver reports every port ACTIVE, and NCCL reaches them through its
// plugin, not its IB transport, so neither GPUDirect RDMA's module nor
// NCCL_IB_DISABLE concerns them.
void rdma_facts(const Facts& f, const Tree& under, FactMap& host) {
  const auto& net = f.network;
  if (!net.read) return;
  const std::string src = "/sys/class/infiniband/*/ports/*";
  std::map<std::string, double> best;  // peer group -> fastest active rate
  std::map<std::string, std::string> best_text;  // as sysfs wrote it
  std::set<std::string> groups_up;
  const auto group = [](const IbDevice& d, const IbPort& p) { return d.hca_type.value_or("?") + "/" + p.link_layer.value_or("?"); };
  std::size_t up = 0, efa = 0;
  for (auto& d : net.ib) {
    if (is_efa(d)) {
      ++efa;
      continue;
    }
    for (auto& p : d.ports)
      if (port_active(p)) {
        ++up;
        groups_up.insert(group(d, p));
        if (p.rate_gbps && *p.rate_gbps > best[group(d, p)]) {
          best[group(d, p)] = *p.rate_gbps;
          best_text[group(d, p)] = p.rate.value_or("?");
        }
      }
  }
  // The GPUs' rails: an HCA below a PCIe switch (the bridge under its root
  // port) that has a GPU, of the model found so beside the most GPUs (two
  // at least), as an HGX board puts one beside each GPU. A front-end card
  // that happens to share one GPU's switch is not a rail, nor a card of the
  // rails' model elsewhere.
  const auto beside = [&](const IbDevice& d) -> const Below* {
    if (!d.path.host_bridge || d.path.bridges.size() < 2) return nullptr;
    const Below& b = under_of(under, d.path.bridges[1].address);
    return b.gpu ? &b : nullptr;
  };
  std::map<std::string, std::set<const Endpoint*>> gpus_beside;  // HCA model -> GPUs sharing a switch with one
  std::set<std::string> switches_seen;
  for (auto& d : net.ib)
    if (const Below* b = beside(d); b && switches_seen.insert(d.hca_type.value_or("?") + "@" + d.path.bridges[1].address).second)
      for (auto* e : b->eps)
        if (e->gpu) gpus_beside[d.hca_type.value_or("?")].insert(e);
  std::size_t most = 2;
  for (auto& [model, g] : gpus_beside) most = std::max(most, g.size());
  const auto rail = [&](const IbDevice& d) {
    auto it = gpus_beside.find(d.hca_type.value_or("?"));
    return beside(d) && it != gpus_beside.end() && it->second.size() == most;
  };
  std::vector<std::string> rail_down, other_down, slow;
  for (auto& d : net.ib)
    for (auto& p : d.ports) {
      if (is_efa(d)) continue;
      const auto g = group(d, p);
      // Down beside ACTIVE peers, or trained (LinkUp) but never made ACTIVE:
      // no subnet manager, the whole fabric's fault, never a spare port.
      if (!port_active(p) && (groups_up.count(g) || p.phys_state == "LinkUp")) {
        const std::string text = port_name(d, p) + " " + p.state.value_or("?") + " (" + p.phys_state.value_or("?") + ")";
        (rail(d) ? rail_down : other_down).push_back(text);
      } else if (port_active(p) && p.rate_gbps && *p.rate_gbps < best[g]) {
        slow.push_back(port_name(d, p) + " at " + p.rate.value_or("?") + ", its peers at " + best_text[g]);
      }
    }
  host["rdma.devices"] = F::of_number(static_cast<double>(net.ib.size()), "/sys/class/infiniband");
  host["efa.devices"] = F::of_number(static_cast<double>(efa), "/sys/class/infiniband/*/device/driver");
  host["rdma.active_ports"] = F::of_number(static_cast<double>(up), src);
  host["rdma.rail_ports_down"] = F::of_list(rail_down, src);
  host["rdma.ports_down"] = F::of_list(other_down, src);
  host["rdma.slow_ports"] = F::of_list(slow, src);
  // A paste does not show which modules are loaded.
  if (!f.report) host["gpudirect_rdma.loaded"] = F::of_bool(net.peermem.has_value(), "/sys/module/{nvidia_peermem,nv_peer_mem}");
  if (net.peermem) host["gpudirect_rdma.module"] = F::of_text(*net.peermem, "/sys/module/" + *net.peermem);
  if (net.nccl_net_plugin) host["nccl.net_plugin"] = F::of_text(net.nccl_net_plugin->path, net.nccl_net_plugin->found_via);
  // Looked for on a host; a paste says which plugin loaded only in an NCCL log.
  if (!f.report)
    host["nccl.net_plugin_found"] = F::of_bool(net.nccl_net_plugin.has_value(), "NCCL_NET_PLUGIN, else libnccl-net.so on the loader's path");
}

// Which NIC a GPU's traffic leaves by: the one sharing the deepest bridge
// with it; and whether any NIC with an active port is on its NUMA node.
void nic_facts(const Facts& f, const std::vector<InventoryGpu>& gpus, std::vector<FactMap>& gpu_maps) {
  std::vector<const IbDevice*> up;
  for (auto& d : f.network.ib)
    if (std::any_of(d.ports.begin(), d.ports.end(), port_active)) up.push_back(&d);
  if (up.empty()) return;
  for (std::size_t i = 0; i < gpus.size() && i < gpu_maps.size(); ++i) {
    const PciDevice* pci = gpus[i].pci;
    if (!pci) continue;
    auto& gm = gpu_maps[i];
    const IbDevice* nearest = nullptr;
    std::size_t depth = 0;
    for (auto* d : up) {
      std::size_t k = 0;
      const auto& a = pci->path.bridges;
      const auto& b = d->path.bridges;
      while (k < a.size() && k < b.size() && a[k].address == b[k].address) ++k;
      if (k > depth) nearest = d, depth = k;
    }
    if (nearest)
      gm["gpu.nearest_nic"] = F::of_text(nearest->name + (depth >= 2 ? " (same PCIe switch)" : " (same root port)"), "/sys/devices/pci* (PCIe paths)");
    if (pci->numa_node) {
      gm["gpu.numa_node"] = F::of_number(*pci->numa_node, pci->source + "/numa_node");
      const bool local = std::any_of(up.begin(), up.end(), [&](const IbDevice* d) { return d->numa_node == pci->numa_node; });
      const bool known = std::all_of(up.begin(), up.end(), [](const IbDevice* d) { return d->numa_node.has_value(); });
      if (local || known) gm["gpu.nic_on_numa_node"] = F::of_bool(local, "/sys/class/infiniband/*/device/numa_node");
    }
  }
}

// At most a few pairs by name, then how many in all: a board whose every
// pair is slow lists 56.
std::vector<std::string> first_pairs(std::vector<std::string> pairs) {
  constexpr std::size_t kShown = 6;
  if (pairs.size() <= kShown) return pairs;
  const std::size_t all = pairs.size();
  pairs.resize(kShown);
  pairs.push_back("and " + std::to_string(all - kShown) + " more");
  return pairs;
}

// The copy-rate matrices a paste shows (p2pBandwidthLatencyTest,
// nvbandwidth) and the peer copies of the kernel checks: pairs far below
// their matrix's median, and pairs whose peer-to-peer copies are slower
// than the same tool's copies staged through host memory, which peer
// traffic redirected by ACS shows. A live copy rated against its link is
// judged by p2p-copy-slow instead, so only the unrated ones (a path through
// the root complex) are named here; they still count toward the median.
void peer_rate_facts(const Facts& f, FactMap& host) {
  struct Matrix {
    const PeerRateMatrix* m;
    std::set<std::pair<int, int>> rated;  // pairs judged elsewhere
  };
  std::vector<Matrix> matrices;
  std::map<std::pair<int, int>, double> staged;
  if (f.report)
    for (auto& m : f.report->peer_rates) {
      if (!m.peer_access && !m.bidirectional)
        for (auto& r : m.rates) staged[{r.src, r.dst}] = r.gbs;
      if (m.peer_access && !m.bidirectional) matrices.push_back({&m, {}});
    }
  PeerRateMatrix live{"gpucheck kernels: peer copies", true, false, {}, ""};
  std::set<std::pair<int, int>> rated;
  if (f.kernels) {
    live.source = "gpucheck kernels (" + f.kernels->library.value_or("libcuda") + "), peer copies";
    for (auto& c : f.kernels->peer_copies) {
      if (c.status != StepStatus::passed || !c.gbs) continue;
      live.rates.push_back({c.src_ordinal, c.dst_ordinal, *c.gbs});
      if (c.expected_gbs) rated.insert({c.src_ordinal, c.dst_ordinal});
    }
    if (!live.rates.empty()) matrices.push_back({&live, std::move(rated)});
  }
  std::vector<std::string> slow, staged_faster;
  std::string src;
  for (auto& [m, judged_elsewhere] : matrices) {
    if (m->rates.size() < 2) continue;
    src += (src.empty() ? "" : "; ") + m->source;
    std::vector<double> v;
    for (auto& r : m->rates) v.push_back(r.gbs);
    std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2), v.end());
    const double median = v[v.size() / 2];
    for (auto& r : m->rates) {
      const std::string pair = "GPU " + std::to_string(r.src) + " -> " + std::to_string(r.dst) + ": " + one_decimal(r.gbs) + " GB/s";
      if (r.gbs < 0.5 * median && !judged_elsewhere.count({r.src, r.dst})) slow.push_back(pair + " (median " + one_decimal(median) + ")");
      if (auto s = staged.find({r.src, r.dst}); s != staged.end() && r.gbs < 0.8 * s->second)
        staged_faster.push_back(pair + " (" + one_decimal(s->second) + " staged)");
    }
  }
  if (src.empty()) return;
  host["p2p.slow_pairs"] = F::of_list(first_pairs(std::move(slow)), src);
  if (!staged.empty()) host["p2p.slower_than_staged"] = F::of_list(first_pairs(std::move(staged_faster)), src);
}

// GPUs joined by NVLink that get no peer access to each other: the kernel
// checks' cuDeviceCanAccessPeer on pairs whose link is NVLink or an
// NVSwitch, and a pasted `topo -p2p` (read, write or NVLink mode) on pairs
// its pasted `topo -m` shows joined by NV#. Known only where such a pair
// was looked at.
void peer_access_facts(const Facts& f, FactMap& host) {
  std::vector<std::string> missing;
  std::string src;
  if (f.kernels)
    for (auto& c : f.kernels->peer_copies) {
      if (!c.link || (*c.link != "nvlink" && *c.link != "nvswitch") || !c.can_access) continue;
      if (src.empty()) src = "gpucheck kernels (" + f.kernels->library.value_or("libcuda") + "), cuDeviceCanAccessPeer";
      if (!*c.can_access)
        missing.push_back("GPU " + c.src_bus.value_or("ordinal " + std::to_string(c.src_ordinal)) + " -> GPU " +
                          c.dst_bus.value_or("ordinal " + std::to_string(c.dst_ordinal)) + " (" + *c.link + ")");
    }
  if (f.report) {
    std::map<std::pair<int, int>, std::pair<std::string, const std::string*>> nvlink;  // pair -> "NV18", its matrix's lines
    for (auto& m : f.report->topo)
      if (m.test == "nvidia-smi topo -m")
        for (auto& x : m.pairs)
          if (starts_with(x.word, "NV")) nvlink[{x.src, x.dst}] = {x.word, &m.source};
    for (auto& m : f.report->topo) {
      const auto mode = m.test.substr(std::min(m.test.size(), std::string_view("nvidia-smi topo -p2p ").size()));
      if (!starts_with(m.test, "nvidia-smi topo -p2p ") || (mode != "r" && mode != "w" && mode != "n")) continue;
      for (auto& x : m.pairs) {
        const auto link = nvlink.find({x.src, x.dst});
        if (link == nvlink.end()) continue;
        for (const std::string* lines : {link->second.second, &m.source})
          if (src.find(*lines) == std::string::npos) src += (src.empty() ? "" : "; ") + *lines;
        if (x.word != "OK")
          missing.push_back("GPU " + std::to_string(x.src) + " -> GPU " + std::to_string(x.dst) + " (" + link->second.first +
                            "; topo -p2p " + mode + ": " + x.word + ")");
      }
    }
  }
  if (!src.empty()) host["p2p.access_missing_nvlink"] = F::of_list(first_pairs(std::move(missing)), src);
}

// The values a pasted nccl-tests run's own validation found wrong: its
// "Out of bounds values" count, or its #wrong columns added up.
void nccl_test_facts(const Facts& f, FactMap& host) {
  if (!f.report) return;
  std::optional<std::uint64_t> wrong;
  std::string src;
  for (auto& t : f.report->nccl_tests) {
    if (!t.validated) continue;
    const std::uint64_t n = std::max(t.out_of_bounds.value_or(0), t.wrong);
    if (!wrong || n > *wrong) {
      wrong = n;
      src = t.source;
    }
  }
  if (wrong) host["nccl_tests.wrong_values"] = F::of_number(static_cast<double>(*wrong), src);
}

}  // namespace

void link_facts(const Facts& f, const std::vector<InventoryGpu>& gpus, std::vector<FactMap>& gpu_maps, FactMap& host) {
  const auto eps = endpoints(f);
  const auto under = below(eps);
  acs_facts(f, eps, under, host);
  iommu_facts(f, host);
  degraded_link_facts(f, eps, under, host);
  nvlink_facts(f, gpu_maps, host);
  rdma_facts(f, under, host);
  nic_facts(f, gpus, gpu_maps);
  peer_rate_facts(f, host);
  peer_access_facts(f, host);
  nccl_test_facts(f, host);
  // NCCL reads these as integers (ncclLoadParam: strtoll): any value that is
  // not zero turns the transport off; "true" reads as 0.
  for (auto [var, fact] : {std::pair{"NCCL_P2P_DISABLE", "nccl.p2p_disabled"}, std::pair{"NCCL_IB_DISABLE", "nccl.ib_disabled"}})
    if (auto it = f.software.gpu_env.find(var); it != f.software.gpu_env.end()) {
      const auto n = parse_int(trim(it->second));
      host[fact] = F::of_bool(n && *n != 0, "environment: " + std::string(var) + "=" + it->second);
    }
  if (auto& km = f.nvidia_driver.kernel_module; km.flavor) host["driver.kernel_module_flavor"] = F::of_text(*km.flavor, km.source);
}

}  // namespace gpucheck::fact_view
