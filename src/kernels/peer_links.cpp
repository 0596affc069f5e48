#include "kernels/peer_links.hpp"

#include <algorithm>
#include <cstdio>

#include "facts/gpu_inventory.hpp"
#include "kernels/run.hpp"
#include "matrix/gpu_figures.hpp"
#include "matrix/lookup.hpp"
#include "util/pci_address.hpp"

namespace gpucheck::kernels {
namespace {

struct Gpu {
  std::string key;
  const PciDevice* pci = nullptr;
  const GpuNvLinks* nvlinks = nullptr;
  const GpuModel* model = nullptr;
};

std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

std::size_t active(const GpuNvLinks& l) {
  return static_cast<std::size_t>(std::count_if(l.links.begin(), l.links.end(), [](const NvLink& k) { return k.active; }));
}

std::string datasheet(const Gpu& g, double total) {
  return "the datasheet's " + number(total) + " GB/s both ways (" + g.model->id + ")";
}

std::optional<PeerLink> nvlink_between(const Gpu& a, const Gpu& b, bool nvswitch) {
  if (!a.nvlinks || !b.nvlinks || a.nvlinks->links.empty() || b.nvlinks->links.empty()) return std::nullopt;
  const std::size_t known = a.nvlinks->links.size(), up_a = active(*a.nvlinks), up_b = active(*b.nvlinks);
  if (up_a == 0 || up_b == 0) return std::nullopt;
  // 0: no figure (a plain value: GCC 12 at -O3 misjudges an optional from a conditional expression).
  const double total = a.model ? nvlink_total_gbs(*a.model).value_or(0) : 0;
  const auto direct = static_cast<std::size_t>(std::count_if(a.nvlinks->links.begin(), a.nvlinks->links.end(), [&](const NvLink& k) {
    return k.active && k.remote_pci && normalize_pci_bus_id(*k.remote_pci) == b.key;
  }));
  PeerLink p;
  if (direct > 0) {
    p.link = "nvlink";
    p.source = "NVLink: " + std::to_string(direct) + " of its " + std::to_string(known) + " links reach it";
    if (total > 0) {
      p.gbs = total / 2 * static_cast<double>(direct) / static_cast<double>(known);
      p.source += ", that share of " + datasheet(a, total);
    }
  } else if (nvswitch) {
    // Every link goes to a switch: the pair gets the smaller side's active share.
    const double share = std::min(static_cast<double>(up_a) / static_cast<double>(known),
                                  static_cast<double>(up_b) / static_cast<double>(b.nvlinks->links.size()));
    p.link = "nvswitch";
    p.source = "NVLink through NVSwitches: " + std::to_string(up_a) + " of " + std::to_string(known) + " links active here, " +
               std::to_string(up_b) + " of " + std::to_string(b.nvlinks->links.size()) + " there";
    if (total > 0) {
      p.gbs = total / 2 * share;
      p.source += ", that share of " + datasheet(a, total);
    }
  } else {
    p.link = "nvlink";
    p.source = "NVLink is up on both, but NVML does not say which links reach which GPU";
  }
  if (!p.gbs) p.source += ": not judged";
  return p;
}

PeerLink pcie_between(const Gpu& a, const Gpu& b) {
  const auto& pa = a.pci->path.bridges;
  const auto& pb = b.pci->path.bridges;
  PeerLink p;
  if (pa.size() >= 2 && pb.size() >= 2 && pa[0].address == pb[0].address && pa[1].address == pb[1].address) {
    p.link = "pcie_switch";
    p.source = "PCIe, both below the switch at " + pa[1].address;
    const auto rate = [](const PciLink& l) { return l.max_gen && l.max_width ? pcie_gbs(*l.max_gen, *l.max_width) : std::nullopt; };
    const auto ra = rate(a.pci->link), rb = rate(b.pci->link);
    if (ra && rb) {
      p.gbs = std::min(*ra, *rb);
      const PciLink& slower = *ra <= *rb ? a.pci->link : b.pci->link;
      p.source += ": gen" + std::to_string(*slower.max_gen) + " x" + std::to_string(*slower.max_width);
    } else {
      p.source += ": the links' rates are not known, not judged";
    }
  } else {
    p.link = "pcie_host";
    p.source = "PCIe through the CPU's root complex: what peer traffic gets there depends on the platform, not judged";
  }
  return p;
}

}  // namespace

std::map<std::pair<std::string, std::string>, PeerLink> peer_links(const Facts& f, const Matrix* m) {
  std::map<std::string, const GpuNvLinks*> nvlinks;
  if (f.nvlink)
    for (auto& g : f.nvlink->gpus) nvlinks[normalize_pci_bus_id(g.pci_bus_id)] = &g;
  const bool nvswitch = std::any_of(f.pci.begin(), f.pci.end(), [](const PciDevice& d) { return d.kind == PciKind::nvswitch; });
  std::vector<Gpu> gpus;
  for (auto& g : gpu_inventory(f)) {
    if (!g.pci || g.pci->vendor != PciVendor::nvidia || g.pci->kind != PciKind::gpu) continue;
    Gpu x{g.key, g.pci, nullptr, nullptr};
    if (auto it = nvlinks.find(g.key); it != nvlinks.end()) x.nvlinks = it->second;
    if (m) x.model = find_gpu_by_pci_id(*m, g.pci->vendor_id + ":" + g.pci->device_id);
    gpus.push_back(x);
  }
  std::map<std::pair<std::string, std::string>, PeerLink> out;
  if (gpus.size() > kMaxPeerGpus) return out;
  for (auto& a : gpus)
    for (auto& b : gpus)
      if (&a != &b) out[{a.key, b.key}] = nvlink_between(a, b, nvswitch).value_or(pcie_between(a, b));
  return out;
}

}  // namespace gpucheck::kernels
