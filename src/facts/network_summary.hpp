// A node's network stack in the few words nodes are compared by: `lock`
// pins them, `fleet` shows the nodes that differ (an NCCL net plugin on some
// nodes only, another OFED, other HCA firmware: jobs across them hang).
#pragma once

#include <optional>
#include <string>

#include "facts/link_facts.hpp"

namespace gpucheck {

struct NetworkSummary {
  // Each absent where the node shows no RDMA device (network.read false),
  // except the plugin, which NCCL loads with or without one.
  std::optional<std::string> nccl_net_plugin;  // its path, or "none"
  std::optional<std::string> ofed;             // the OFED release, or "inbox" (mlx devices only)
  std::optional<std::string> rdma_firmware;    // the HCAs' firmware versions, distinct, sorted
  std::optional<std::string> rdma_rate;        // the ACTIVE ports' rates, distinct, sorted
  std::optional<std::string> gpudirect_rdma;   // "nvidia_peermem", "nv_peer_mem" or "none"
  std::optional<std::string> hpcx;             // HPC-X's release, or "none" (known with the plugin)
  std::optional<std::string> efa_driver;       // EFA's driver release, or "inbox" (EFA devices only)
};

// `plugin_read`: the facts say which plugin NCCL loads (a probe, or a report
// that has the "network" key); false for a report written before it.
NetworkSummary summarize_network(const NetworkFacts& n, bool plugin_read);

}  // namespace gpucheck
