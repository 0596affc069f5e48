// The JSON of the links' facts (facts/link_facts.hpp; docs/facts-schema.md).
#include <cstdio>

#include "facts/json_util.hpp"

namespace gpucheck {

namespace {

std::string_view to_string(AcsRead r) {
  switch (r) {
    case AcsRead::read: return "read";
    case AcsRead::no_acs: return "no_acs";
    case AcsRead::not_shown: return "not_shown";
  }
  return "not_shown";
}

std::string hex4(std::uint16_t v) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "%04x", v);
  return buf;
}

J to_json(const NcclPlugin& p) { return J{{"file", p.file}, {"path", p.path}, {"found_via", p.found_via}}; }

}  // namespace

J to_json(const PciLink& l) {
  return J{{"current_speed", opt(l.current_speed)}, {"current_gen", opt(l.current_gen)},
           {"current_width", opt(l.current_width)}, {"max_speed", opt(l.max_speed)},
           {"max_gen", opt(l.max_gen)},             {"max_width", opt(l.max_width)}};
}

J to_json(const PciPath& p) {
  J bridges = J::array();
  for (auto& b : p.bridges) {
    J acs = nullptr;
    if (b.acs_control) acs = {{"control", hex4(*b.acs_control)}, {"enabled", acs_words(*b.acs_control)}};
    bridges.push_back({{"address", b.address}, {"link", to_json(b.link)}, {"acs_read", to_string(b.acs)}, {"acs", std::move(acs)}});
  }
  return J{{"host_bridge", opt(p.host_bridge)}, {"bridges", std::move(bridges)}, {"iommu_group", opt(p.iommu_group)},
           {"iommu_type", opt(p.iommu_type)}, {"local_cpus", opt(p.local_cpus)}};
}

J to_json(const IommuFacts& io) {
  return J{{"read", io.read}, {"units", io.units}, {"cmdline", io.cmdline}, {"source", io.source}};
}

J to_json(const NetworkFacts& n) {
  J ib = J::array();
  for (auto& d : n.ib) {
    J ports = J::array();
    for (auto& p : d.ports)
      ports.push_back({{"port", p.port}, {"state", opt(p.state)}, {"phys_state", opt(p.phys_state)}, {"rate", opt(p.rate)},
                       {"rate_gbps", opt(p.rate_gbps)}, {"link_layer", opt(p.link_layer)}, {"counters", p.counters}});
    ib.push_back({{"name", d.name}, {"pci_address", opt(d.pci_address)}, {"hca_type", opt(d.hca_type)}, {"fw_ver", opt(d.fw_ver)},
                  {"board_id", opt(d.board_id)}, {"driver", opt(d.driver)}, {"numa_node", opt(d.numa_node)}, {"path", to_json(d.path)},
                  {"ports", std::move(ports)}, {"source", d.source}});
  }
  J plugins = J::array();
  for (auto& p : n.nccl_plugins) plugins.push_back(to_json(p));
  return J{{"read", n.read},
           {"ib", std::move(ib)},
           {"peermem", opt(n.peermem)},
           {"ofed_version", opt(n.ofed_version)},
           {"ofed_source", opt(n.ofed_source)},
           {"efa_version", opt(n.efa_version)},
           {"hpcx_version", opt(n.hpcx_version)},
           {"hpcx_source", opt(n.hpcx_source)},
           {"nccl_plugins", std::move(plugins)},
           {"nccl_net_plugin", n.nccl_net_plugin ? to_json(*n.nccl_net_plugin) : J(nullptr)}};
}

J to_json(const NvLinkFacts& f) {
  J gpus = J::array();
  for (auto& g : f.gpus) {
    J links = J::array();
    for (auto& l : g.links)
      links.push_back({{"link", l.link}, {"active", l.state_read ? J(l.active) : J(nullptr)}, {"version", opt(l.version)}, {"remote_pci", opt(l.remote_pci)},
                       {"replay", opt(l.replay)}, {"recovery", opt(l.recovery)}, {"crc_flit", opt(l.crc_flit)},
                       {"crc_data", opt(l.crc_data)}});
    gpus.push_back({{"pci_bus_id", g.pci_bus_id}, {"links", std::move(links)}});
  }
  return J{{"gpus", std::move(gpus)}, {"source", f.source}};
}

}  // namespace gpucheck
