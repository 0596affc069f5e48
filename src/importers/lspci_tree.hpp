// `lspci -v`/`-vvv` read as a PCI tree: each device's header and detail
// lines, then the bridges above each GPU and NVSwitch, found the way the
// kernel numbers buses (a device on bus B sits below the bridge whose
// "Bus: … secondary=B"). What sysfs gives the topology probe, from a paste.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "facts/facts.hpp"
#include "importers/paste.hpp"

namespace gpucheck {

// The first line of an lspci device: "17:02.0 PCI bridge: …" (or with its
// domain, "0000:17:02.0 …"); the length of its address, 0 for any other line.
std::size_t lspci_address_end(std::string_view trimmed_line);

// A device line's class ("3D controller", or with -nn "3D controller [0302]")
// and the rest of its description: a display class of NVIDIA or AMD.
bool lspci_gpu(std::string_view klass, std::string_view rest);

struct LspciTree {
  std::vector<PciDevice> devices;  // GPUs and NVSwitches, each with its path
  // Mellanox NICs, named by address ("NIC 0000:1a:00.0"): lspci does not
  // say which RDMA device (mlx5_N) each is, and a port nothing at all. They
  // are endpoints of the peer-to-peer paths, as on a probed host.
  std::vector<IbDevice> nics;
  std::size_t listed = 0;          // devices of every kind
  std::size_t bridges = 0;         // bridges on those paths
  std::size_t acs_read = 0;        // of them, with their extended capabilities shown
  bool verbose = false;            // detail lines were there (-v)
};

// The devices of lines first..last. Lines of a device the reader does not
// use are not "unread": -vvv prints hundreds per device.
LspciTree read_lspci_tree(const PasteText& p, std::size_t first, std::size_t last);

}  // namespace gpucheck
