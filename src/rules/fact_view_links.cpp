// The links' facts: peer-to-peer paths through PCIe switches and their
// ACS, the IOMMU, degraded links above the GPUs and NICs, NVLink per GPU,
// the RDMA ports and GPUDirect RDMA, and which NIC is near which GPU.
// docs/topology.md explains each.
#include <algorithm>
#include <map>
#include <set>

#include "rules/fact_view_parts.hpp"
#include "util/pci_address.hpp"
#include "util/strings.hpp"

namespace gpucheck::fact_view {

namespace {

// What sits at the bottom of a PCIe path: a GPU (or NVSwitch) or a NIC.
struct Endpoint {
  std::string name;  // "GPU 0000:19:00.0", "mlx5_0"
  const PciPath* path;
  const PciLink* own_link;  // the endpoint's own link, when read
  bool gpu;
};

std::vector<Endpoint> endpoints(const Facts& f) {
  std::vector<Endpoint> out;
  for (auto& d : f.pci)
    if (d.path.host_bridge && d.kind == PciKind::gpu) out.push_back({"GPU " + d.address, &d.path, &d.link, true});
  for (auto& d : f.network.ib)
    if (d.path.host_bridge) out.push_back({d.name, &d.path, nullptr, false});
  return out;
}

// How many endpoints sit below each bridge.
std::map<std::string, std::vector<const Endpoint*>> below(const std::vector<Endpoint>& eps) {
  std::map<std::string, std::vector<const Endpoint*>> out;
  for (auto& e : eps)
    for (auto& b : e.path->bridges) out[b.address].push_back(&e);
  return out;
}

// "GPU 0000:19:00.0 + mlx5_0": one item of a list fact, so no commas.
std::string names_of(const std::vector<const Endpoint*>& eps) {
  std::vector<std::string> n;
  for (auto* e : eps) n.push_back(e->name);
  return join(n, " + ");
}

// A bridge below a PCIe switch's upstream port that another endpoint
// shares (its parent has two endpoints or more below it, and the parent is
// not the root port): peer-to-peer traffic between them turns at the
// switch, unless ACS sends it up to the root complex.
void acs_facts(const std::vector<Endpoint>& eps, const std::map<std::string, std::vector<const Endpoint*>>& under, FactMap& host) {
  // By switch (the shared parent), in order of first sight: its redirecting ports and their ACS words.
  std::vector<std::string> switches;
  std::map<std::string, std::pair<std::vector<std::string>, std::set<std::string>>> redirecting;
  std::vector<std::string> unread;
  std::set<std::string> seen;
  std::size_t on_paths = 0;
  for (auto& e : eps) {
    const auto& br = e.path->bridges;
    for (std::size_t i = 2; i < br.size(); ++i) {
      const auto& peers = under.at(br[i - 1].address);
      if (peers.size() < 2 || !seen.insert(br[i].address).second) continue;
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
                       join(std::vector<std::string>(words.begin(), words.end()), " / ") + ") above " + names_of(under.at(sw)));
  }
  if (on_paths == 0) return;
  const std::string src = "/sys/devices/pci*/…/config (ACS control)";
  host["p2p.switch_ports"] = F::of_number(static_cast<double>(on_paths), "/sys/devices/pci* (PCIe paths)");
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
  } else if (f.iommu.read && f.iommu.units.empty() && !f.from_report) {
    host["iommu.translating"] = F::of_bool(false, f.iommu.source);
    host["iommu.mode"] = F::of_text("off: no IOMMU unit", f.iommu.source);
  }
  if (!f.iommu.cmdline.empty()) host["iommu.cmdline"] = F::of_list(f.iommu.cmdline, "/proc/cmdline");
}

// A link above a GPU or NIC narrower than both its ends can train: the
// path alternates a downstream-facing port (root port, switch downstream
// port) and the upstream-facing end below it (switch upstream port, the
// device), so the links are the pairs (0,1), (2,3), …; the device's own
// link is judged on the GPU (pcie-width-degraded). Width only: a link's
// speed drops when idle.
void degraded_link_facts(const std::vector<Endpoint>& eps, const std::map<std::string, std::vector<const Endpoint*>>& under,
                         FactMap& host) {
  std::vector<std::string> degraded;
  std::set<std::string> seen;
  for (auto& e : eps) {
    const auto& br = e.path->bridges;
    if (br.size() % 2 == 0) continue;  // not root port / switch pairs: no telling which ends face each other
    for (std::size_t up = 1; up < br.size(); up += 2) {
      const auto& a = br[up - 1].link;
      const auto& b = br[up].link;
      if (!a.max_width || !b.max_width || !b.current_width) continue;
      const int can = std::min(*a.max_width, *b.max_width);
      if (*b.current_width >= can || !seen.insert(br[up].address).second) continue;
      std::string text = br[up - 1].address;
      text.append(" - ").append(br[up].address).append(" at ").append(lanes_text(*b.current_width));
      text.append(" of ").append(lanes_text(can)).append(" (above ").append(names_of(under.at(br[up].address))).append(")");
      degraded.push_back(std::move(text));
    }
  }
  if (!eps.empty()) host["pcie.degraded_links"] = F::of_list(degraded, "/sys/devices/pci*/…/{current,max}_link_width");
}

std::uint64_t sum(const NvLink& l) {
  return l.replay.value_or(0) + l.recovery.value_or(0) + l.crc_flit.value_or(0) + l.crc_data.value_or(0);
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
    std::size_t active = 0;
    for (auto& l : it->second->links) {
      if (l.active) ++active;
      else down.push_back("link " + std::to_string(l.link));
      if (const auto n = sum(l))
        errors.push_back("link " + std::to_string(l.link) + ": replay " + std::to_string(l.replay.value_or(0)) + ", recovery " +
                         std::to_string(l.recovery.value_or(0)) + ", CRC flit " + std::to_string(l.crc_flit.value_or(0)) +
                         ", CRC data " + std::to_string(l.crc_data.value_or(0)));
    }
    gm["gpu.nvlink_links"] = F::of_number(static_cast<double>(it->second->links.size()), src);
    gm["gpu.nvlink_active"] = F::of_number(static_cast<double>(active), src);
    gm["gpu.nvlink_inactive"] = F::of_list(down, src);
    gm["gpu.nvlink_errors"] = F::of_list(errors, src);
    most = std::max(most, static_cast<double>(active));
  }
  if (most >= 0) host["nvlink.active_most"] = F::of_number(most, src);
}

bool active(const IbPort& p) { return p.state && *p.state == "ACTIVE"; }

std::string port_name(const IbDevice& d, const IbPort& p) { return d.name + " port " + std::to_string(p.port); }

// Ports compared with their peers: the same HCA model on the same link
// layer. A port down beside active peers is a cable, transceiver or switch
// port; one slower than its peers trained down.
void rdma_facts(const Facts& f, const std::map<std::string, std::vector<const Endpoint*>>& under, FactMap& host) {
  const auto& net = f.network;
  if (!net.read) return;
  const std::string src = "/sys/class/infiniband/*/ports/*";
  std::map<std::string, double> best;  // peer group -> fastest active rate
  std::set<std::string> groups_up;
  const auto group = [](const IbDevice& d, const IbPort& p) { return d.hca_type.value_or("?") + "/" + p.link_layer.value_or("?"); };
  std::size_t up = 0;
  for (auto& d : net.ib)
    for (auto& p : d.ports)
      if (active(p)) {
        ++up;
        groups_up.insert(group(d, p));
        if (p.rate_gbps) best[group(d, p)] = std::max(best[group(d, p)], *p.rate_gbps);
      }
  // The GPUs' rails: the HCA model found below the PCIe switches of the
  // most GPUs (two at least), as an HGX board puts one beside each GPU. A
  // front-end card that happens to share one GPU's switch is not a rail.
  std::map<std::string, std::set<const Endpoint*>> gpus_beside;  // HCA model -> GPUs sharing a switch with one
  for (auto& d : net.ib)
    for (std::size_t i = 1; i < d.path.bridges.size(); ++i)
      for (auto* e : under.at(d.path.bridges[i].address))
        if (e->gpu) gpus_beside[d.hca_type.value_or("?")].insert(e);
  std::size_t most = 2;
  for (auto& [model, g] : gpus_beside) most = std::max(most, g.size());
  const auto rail = [&](const IbDevice& d) {
    auto it = gpus_beside.find(d.hca_type.value_or("?"));
    return it != gpus_beside.end() && it->second.size() == most;
  };
  std::vector<std::string> rail_down, other_down, slow;
  for (auto& d : net.ib)
    for (auto& p : d.ports) {
      const auto g = group(d, p);
      if (!active(p) && groups_up.count(g)) {
        const std::string text = port_name(d, p) + " " + p.state.value_or("?") + " (" + p.phys_state.value_or("?") + ")";
        (rail(d) ? rail_down : other_down).push_back(text);
      } else if (active(p) && p.rate_gbps && *p.rate_gbps < best[g]) {
        slow.push_back(port_name(d, p) + " at " + p.rate.value_or("?") + ", its peers at " + std::to_string(static_cast<int>(best[g])) + " Gb/sec");
      }
    }
  host["rdma.devices"] = F::of_number(static_cast<double>(net.ib.size()), "/sys/class/infiniband");
  host["rdma.active_ports"] = F::of_number(static_cast<double>(up), src);
  host["rdma.rail_ports_down"] = F::of_list(rail_down, src);
  host["rdma.ports_down"] = F::of_list(other_down, src);
  host["rdma.slow_ports"] = F::of_list(slow, src);
  // A paste does not show which modules are loaded.
  if (!f.from_report) host["gpudirect_rdma.loaded"] = F::of_bool(net.peermem.has_value(), "/sys/module/{nvidia_peermem,nv_peer_mem}");
  if (net.peermem) host["gpudirect_rdma.module"] = F::of_text(*net.peermem, "/sys/module/" + *net.peermem);
  if (net.nccl_net_plugin) host["nccl.net_plugin"] = F::of_text(net.nccl_net_plugin->path, net.nccl_net_plugin->found_via);
}

// Which NIC a GPU's traffic leaves by: the one sharing the deepest bridge
// with it; and whether any NIC with an active port is on its NUMA node.
void nic_facts(const Facts& f, const std::vector<InventoryGpu>& gpus, std::vector<FactMap>& gpu_maps) {
  std::vector<const IbDevice*> up;
  for (auto& d : f.network.ib)
    if (std::any_of(d.ports.begin(), d.ports.end(), active)) up.push_back(&d);
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

}  // namespace

void link_facts(const Facts& f, const std::vector<InventoryGpu>& gpus, std::vector<FactMap>& gpu_maps, FactMap& host) {
  const auto eps = endpoints(f);
  const auto under = below(eps);
  acs_facts(eps, under, host);
  iommu_facts(f, host);
  degraded_link_facts(eps, under, host);
  nvlink_facts(f, gpu_maps, host);
  rdma_facts(f, under, host);
  nic_facts(f, gpus, gpu_maps);
  if (auto& km = f.nvidia_driver.kernel_module; km.flavor) host["driver.kernel_module_flavor"] = F::of_text(*km.flavor, km.source);
}

}  // namespace gpucheck::fact_view
