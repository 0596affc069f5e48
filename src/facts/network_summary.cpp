#include "facts/network_summary.hpp"

#include <algorithm>
#include <set>

#include "util/strings.hpp"

namespace gpucheck {

namespace {

std::optional<std::string> joined(const std::set<std::string>& s) {
  if (s.empty()) return std::nullopt;
  return join(std::vector<std::string>(s.begin(), s.end()), ", ");
}

}  // namespace

NetworkSummary summarize_network(const NetworkFacts& n, bool plugin_read) {
  NetworkSummary s;
  if (plugin_read) {
    s.nccl_net_plugin = n.nccl_net_plugin ? n.nccl_net_plugin->path : "none";
    s.hpcx = n.hpcx_version.value_or("none");
  }
  if (!n.read) return s;
  // Only Mellanox's driver has an OFED: no mlx device, no answer.
  if (n.ofed_version || std::any_of(n.ib.begin(), n.ib.end(), [](const IbDevice& d) { return starts_with(d.name, "mlx"); }))
    s.ofed = n.ofed_version.value_or("inbox");
  s.gpudirect_rdma = n.peermem.value_or("none");
  if (n.efa_version || std::any_of(n.ib.begin(), n.ib.end(), is_efa)) s.efa_driver = n.efa_version.value_or("inbox");
  std::set<std::string> firmware, rates;
  for (auto& d : n.ib) {
    if (d.fw_ver) firmware.insert(*d.fw_ver);
    for (auto& p : d.ports)
      if (port_active(p) && p.rate) rates.insert(*p.rate);
  }
  s.rdma_firmware = joined(firmware);
  s.rdma_rate = joined(rates);
  return s;
}

}  // namespace gpucheck
