// The PCIe paths above the GPUs and NVSwitches (bridges, their links, ACS,
// IOMMU groups) and the IOMMU itself: what peer-to-peer traffic between
// GPUs crosses. docs/topology.md.
#include <set>

#include "pci_path.hpp"
#include "probe.hpp"
#include "util/pci_address.hpp"
#include "util/strings.hpp"

namespace gpucheck {

namespace {

// The kernel parameters that turn the IOMMU on or off or into passthrough
// (Documentation/admin-guide/kernel-parameters.txt).
bool iommu_word(std::string_view w) {
  return starts_with(w, "iommu=") || starts_with(w, "iommu.") || starts_with(w, "intel_iommu=") || starts_with(w, "amd_iommu=");
}

void read_iommu(ProbeContext& ctx) {
  auto& io = ctx.facts().iommu;
  const Host& h = ctx.host();
  if (auto units = h.list_dir("/sys/class/iommu")) {
    for (auto& e : *units) io.units.push_back(e.name);
    io.read = true;
  } else if (units.problem().reason == Reason::absent) {
    io.read = true;  // no IOMMU driver registered a unit
  } else {
    ctx.note("topology", "IOMMU units", units.problem());
  }
  io.source = "/sys/class/iommu";
  if (auto cmdline = h.read_file("/proc/cmdline", 1 << 16); cmdline && is_text(*cmdline)) {
    for (auto w : split(trim(*cmdline), ' '))
      if (iommu_word(w)) io.cmdline.emplace_back(w);
    io.source += ", /proc/cmdline";
  }
}

}  // namespace

void probe_topology(ProbeContext& ctx) {
  read_iommu(ctx);
  std::vector<std::string> unplaced;
  std::set<std::string> hidden;  // bridges whose ACS only root may read
  BridgeCache bridges;
  for (auto& d : ctx.facts().pci) {
    d.path = read_pci_path(ctx, "topology", "/sys/bus/pci/devices/" + d.address, bridges);
    if (!d.path.host_bridge) unplaced.push_back(d.address);
    for (auto& b : d.path.bridges)
      if (b.acs == AcsRead::not_shown) hidden.insert(b.address);
  }
  if (!hidden.empty())
    ctx.note("topology", "ACS",
             Problem{Reason::permission_denied, "/sys/devices/pci*/…/config",
                     std::to_string(hidden.size()) + " bridge(s) above the GPUs: the kernel shows their extended configuration space to root only; run as root to read ACS"});
  if (!unplaced.empty())
    ctx.note("topology", "PCIe paths",
             Problem{Reason::absent, "/sys/bus/pci/devices",
                     compact_pci_bus_ids(unplaced) + ": not links into /sys/devices/pci…, so the bridges above them are unknown"});
}

}  // namespace gpucheck
