// What a copy between two GPUs should reach, from the links the facts show
// between them: NVLink (direct, or through NVSwitches) as a share of the
// model's datasheet figure, or one PCIe switch both sit below. A path
// through the CPU's root complex is reported, not judged: what peer traffic
// gets there depends on the platform, not the link.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <utility>

#include "facts/facts.hpp"
#include "matrix/matrix.hpp"

namespace gpucheck::kernels {

// A node with more GPUs than this gets no peer copies (n × (n − 1) pairs):
// the largest NVLink nodes hold 8 or 16, and a snapshot may claim 1,024.
inline constexpr std::size_t kMaxPeerGpus = 32;

struct PeerLink {
  std::string link;                // "nvlink", "nvswitch", "pcie_switch", "pcie_host"
  std::optional<double> gbs;       // one direction; none where not judged
  std::string source;              // how, in words
};

// For every ordered pair of NVIDIA GPUs (normalised bus ids, source first);
// none past kMaxPeerGpus.
std::map<std::pair<std::string, std::string>, PeerLink> peer_links(const Facts& f, const Matrix* m);

}  // namespace gpucheck::kernels
