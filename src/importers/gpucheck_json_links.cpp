// The inverse of src/facts/link_json.cpp: PCIe links and paths, the IOMMU,
// the network and NVLink. A report written before these facts existed
// has none of their keys: each reads as unknown, not as an error.
#include "facts/fact_limits.hpp"
#include "importers/gpucheck_json.hpp"
#include "util/strings.hpp"

namespace gpucheck {

namespace {

using Node = JsonReader::Node;

std::optional<AcsRead> acs_read_named(std::string_view s) {
  if (s == "read") return AcsRead::read;
  if (s == "no_acs") return AcsRead::no_acs;
  if (s == "not_shown") return AcsRead::not_shown;
  return std::nullopt;
}

NcclPlugin read_plugin(JsonReader& r, const Node& n) {
  return NcclPlugin{r.string(n, "file"), r.string(n, "path"), r.string(n, "found_via")};
}

}  // namespace

PciLink read_pci_link(JsonReader& r, const Node& n) {
  PciLink l;
  l.current_speed = r.opt_string(n, "current_speed");
  l.current_gen = r.opt_narrow<int>(n, "current_gen");
  l.current_width = r.opt_narrow<int>(n, "current_width");
  l.max_speed = r.opt_string(n, "max_speed");
  l.max_gen = r.opt_narrow<int>(n, "max_gen");
  l.max_width = r.opt_narrow<int>(n, "max_width");
  return l;
}

PciPath read_pci_path(JsonReader& r, const Node& n) {
  PciPath p;
  if (n.absent()) return p;
  p.host_bridge = r.opt_string(n, "host_bridge");
  for (auto& b : r.objects(r.child(n, "bridges"))) {
    // Bridges belong to a path that has its host bridge; a path is a few deep.
    if (!p.host_bridge || p.bridges.size() == kMaxPciPathBridges) break;
    PciBridge br;
    br.address = r.string(b, "address");
    br.link = read_pci_link(r, r.child(b, "link"));
    br.acs = r.word(b, "acs_read", acs_read_named, "read, no_acs, not_shown", AcsRead::not_shown);
    if (auto acs = r.child(b, "acs"); !acs.absent())
      if (auto control = r.opt_string(acs, "control"))
        if (auto v = parse_int(*control, 16); v && *v >= 0 && *v <= 0xffff) br.acs_control = static_cast<std::uint16_t>(*v);
    if (br.acs == AcsRead::read && !br.acs_control) br.acs = AcsRead::not_shown;  // "read" without a value is not a reading
    p.bridges.push_back(std::move(br));
  }
  p.iommu_group = r.opt_narrow<int>(n, "iommu_group");
  p.iommu_type = r.opt_string(n, "iommu_type");
  p.local_cpus = r.opt_string(n, "local_cpus");
  return p;
}

IommuFacts read_iommu(JsonReader& r, const Node& n) {
  IommuFacts io;
  if (n.absent()) return io;
  io.read = r.boolean(n, "read");
  io.units = r.strings(n, "units");
  io.cmdline = r.strings(n, "cmdline");
  io.source = r.string(n, "source");
  return io;
}

NetworkFacts read_network(JsonReader& r, const Node& n) {
  NetworkFacts net;
  if (n.absent()) return net;
  net.read = r.boolean(n, "read");
  for (auto& d : r.objects(r.child(n, "ib"))) {
    if (net.ib.size() == kMaxRdmaDevices) break;
    IbDevice dev;
    dev.name = r.string(d, "name");
    dev.pci_address = r.opt_string(d, "pci_address");
    dev.hca_type = r.opt_string(d, "hca_type");
    dev.fw_ver = r.opt_string(d, "fw_ver");
    dev.board_id = r.opt_string(d, "board_id");
    dev.driver = r.opt_string(d, "driver");
    dev.numa_node = r.opt_narrow<int>(d, "numa_node");
    dev.path = read_pci_path(r, r.child(d, "path"));
    for (auto& p : r.objects(r.child(d, "ports"))) {
      if (dev.ports.size() == 255) break;
      IbPort port;
      port.port = static_cast<int>(r.integer(p, "port"));
      port.state = r.opt_string(p, "state");
      port.phys_state = r.opt_string(p, "phys_state");
      port.rate = r.opt_string(p, "rate");
      // A rate as sysfs can give one: finite, 0 to 10^6 Gb/s.
      if (auto g = r.opt_double(p, "rate_gbps"); g && *g >= 0 && *g <= 1e6) port.rate_gbps = g;
      port.link_layer = r.opt_string(p, "link_layer");
      const auto counters = r.child(p, "counters");
      if (!counters.absent() && counters.j->is_object())
        for (auto& [name, v] : counters.j->items())
          if (v.is_number_integer()) port.counters[name] = v.get<std::int64_t>();
      dev.ports.push_back(std::move(port));
    }
    dev.source = r.string(d, "source");
    net.ib.push_back(std::move(dev));
  }
  net.peermem = r.opt_string(n, "peermem");
  net.ofed_version = r.opt_string(n, "ofed_version");
  net.ofed_source = r.opt_string(n, "ofed_source");
  net.efa_version = r.opt_string(n, "efa_version");
  net.hpcx_version = r.opt_string(n, "hpcx_version");
  net.hpcx_source = r.opt_string(n, "hpcx_source");
  for (auto& p : r.objects(r.child(n, "nccl_plugins"))) net.nccl_plugins.push_back(read_plugin(r, p));
  if (auto p = r.child(n, "nccl_net_plugin"); !p.absent()) net.nccl_net_plugin = read_plugin(r, p);
  return net;
}

NvLinkFacts read_nvlink(JsonReader& r, const Node& n) {
  NvLinkFacts f;
  for (auto& g : r.objects(r.child(n, "gpus"))) {
    if (f.gpus.size() == kMaxGpusPerNode) break;
    GpuNvLinks links;
    links.pci_bus_id = r.string(g, "pci_bus_id");
    for (auto& l : r.objects(r.child(g, "links"))) {
      if (links.links.size() == 64) break;
      NvLink link;
      link.link = static_cast<int>(r.integer(l, "link"));
      // null: only the link's error counters were read (a pasted nvlink -e).
      const auto active = r.opt_bool(l, "active");
      link.active = active.value_or(false);
      link.state_read = active.has_value();
      link.version = r.opt_narrow<int>(l, "version");
      link.remote_pci = r.opt_string(l, "remote_pci");
      link.replay = r.opt_uint(l, "replay");
      link.recovery = r.opt_uint(l, "recovery");
      link.crc_flit = r.opt_uint(l, "crc_flit");
      link.crc_data = r.opt_uint(l, "crc_data");
      links.links.push_back(std::move(link));
    }
    f.gpus.push_back(std::move(links));
  }
  f.source = r.string(n, "source");
  return f;
}

}  // namespace gpucheck
