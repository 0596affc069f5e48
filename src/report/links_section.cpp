// The probe report's "Links" section: the IOMMU, ACS on the PCIe paths
// above the GPUs, NVLink, the RDMA devices, GPUDirect RDMA and the NCCL
// net plugin (docs/topology.md).
#include <set>

#include "report/text_writer.hpp"
#include "util/strings.hpp"

namespace gpucheck {

namespace {

void iommu_line(Writer& w, const Facts& f) {
  std::set<std::string> types;
  for (auto& d : f.pci)
    if (d.path.iommu_type) types.insert(*d.path.iommu_type);
  std::string v;
  if (!types.empty()) v = "GPU groups of type " + join(std::vector<std::string>(types.begin(), types.end()), ", ");
  else if (f.iommu.read && f.iommu.units.empty()) v = "no IOMMU unit";
  else if (!f.iommu.units.empty()) v = join(f.iommu.units, ", ");
  else v = "unknown";
  if (!f.iommu.cmdline.empty()) v += "; " + join(f.iommu.cmdline, " ");
  w.fact("IOMMU", v, f.iommu.source);
}

// Each bridge above a GPU once: how many read, and which ACS control words.
void acs_line(Writer& w, const Facts& f) {
  std::set<std::string> seen;
  std::size_t read = 0, hidden = 0, none = 0;
  std::set<std::string> on;
  for (auto& d : f.pci)
    for (auto& b : d.path.bridges) {
      if (!seen.insert(b.address).second) continue;
      if (b.acs == AcsRead::not_shown) ++hidden;
      else if (b.acs == AcsRead::no_acs) ++none;
      else {
        ++read;
        if (b.acs_control && *b.acs_control) on.insert(b.address + " " + join(acs_words(*b.acs_control), " "));
      }
    }
  if (seen.empty()) {
    w.fact("PCIe paths", f.report ? "not in the report" : "unknown (the devices are not links into /sys/devices)");
    return;
  }
  std::string v = std::to_string(seen.size()) + " bridges above the GPUs and NVSwitches: ACS read on " + std::to_string(read) + ", none on " +
                  std::to_string(none);
  if (hidden) v += ", " + std::to_string(hidden) + " unread (root only)";
  w.fact("PCIe paths", v, "/sys/devices/pci*");
  for (auto& b : on) w.line("  ACSCtl on " + b);
}

void nvlink_lines(Writer& w, const Facts& f) {
  if (!f.nvlink) {
    w.fact("NVLink", f.report ? "not in the report" : "not read");
    return;
  }
  for (auto& g : f.nvlink->gpus) {
    if (g.links.empty()) {
      w.fact(g.pci_bus_id, "no NVLink");
      continue;
    }
    std::size_t active = 0;
    std::vector<std::string> down;
    for (auto& l : g.links) {
      if (l.active) ++active;
      else down.push_back(std::to_string(l.link));
    }
    std::string v = "NVLink " + std::to_string(active) + " of " + std::to_string(g.links.size()) + " active";
    if (!down.empty()) v += w.style().warn("; down: " + join(down, ", "));
    w.fact(g.pci_bus_id, v, f.nvlink->source);
  }
}

void rdma_lines(Writer& w, const Facts& f) {
  const auto& n = f.network;
  if (!n.read) {
    w.fact("RDMA", nothing_found(f));
  } else {
    for (auto& d : n.ib) {
      std::string v = is_efa(d) ? std::string("EFA") : d.hca_type.value_or("?") + " fw " + d.fw_ver.value_or("?");
      if (d.pci_address) v += "  " + *d.pci_address;
      if (d.numa_node) v += "  NUMA " + std::to_string(*d.numa_node);
      w.fact(d.name, v, d.source);
      for (auto& p : d.ports) {
        std::string pv = p.state.value_or("?") + " (" + p.phys_state.value_or("?") + ")  " + p.rate.value_or("?") + "  " +
                         p.link_layer.value_or("?");
        w.line("  port " + std::to_string(p.port) + "  " + (port_active(p) ? pv : w.style().warn(pv)));
      }
    }
  }
  if (f.report) return;  // a paste shows neither modules nor libraries
  w.fact("GPUDirect RDMA", n.peermem.value_or("no nvidia-peermem"), "/sys/module");
  if (n.ofed_version) w.fact("OFED", *n.ofed_version, n.ofed_source.value_or(""));
  if (n.efa_version) w.fact("EFA driver", *n.efa_version, "/sys/module/efa/version");
  if (n.hpcx_version) w.fact("HPC-X", *n.hpcx_version, n.hpcx_source.value_or(""));
  w.fact("NCCL net plugin", n.nccl_net_plugin ? n.nccl_net_plugin->path : "none (NCCL's own IB and socket transports)",
         n.nccl_net_plugin ? n.nccl_net_plugin->found_via : "");
}

}  // namespace

void links_section(Writer& w, const Facts& f) {
  w.section("Links");
  const bool gpus = !f.pci.empty() || f.nvlink;
  if (!f.report) {
    iommu_line(w, f);
    if (gpus) acs_line(w, f);
  }
  if (gpus) nvlink_lines(w, f);
  rdma_lines(w, f);
}

}  // namespace gpucheck
