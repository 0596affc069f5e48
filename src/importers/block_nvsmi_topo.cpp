// `nvidia-smi topo -m`: a header of GPUs (and NICs), one row per device
// with the link to each other ("X", "NV12", "PIX", "PXB", "PHB", "NODE",
// "SYS"), then the legend. No fact holds the topology yet: the block is
// named, and its note lists the kinds of link between GPUs it shows.
#include <set>

#include "importers/block_readers.hpp"
#include "importers/block_util.hpp"
#include "util/strings.hpp"

namespace gpucheck {

namespace {

bool header(std::string_view t) {
  return starts_with(t, "GPU0") && (t.find("GPU1") != std::string_view::npos || t.find("CPU Affinity") != std::string_view::npos);
}

bool row(std::string_view t) {
  return (starts_with(t, "GPU") || starts_with(t, "NIC") || starts_with(t, "mlx")) && t.find(" X ") != std::string_view::npos;
}

Opens opens(const PasteText& p, std::size_t i) { return header(p.trimmed(i)) ? Opens::surely : Opens::no; }

bool continues(const PasteText& p, std::size_t, std::size_t i) {
  const auto t = p.trimmed(i);
  // The rows, then "Legend:" and its indented "X    = Self" lines, and the NIC legend.
  return t.empty() || row(t) || starts_with(t, "GPU") || starts_with(t, "NIC") || t == "Legend:" || t == "NIC Legend:" ||
         t.find(" = ") != std::string_view::npos || starts_with(t, "X ");
}

void read(const PasteText& p, std::size_t first, std::size_t last, BlockFacts& out) {
  std::set<std::string> links;
  for (std::size_t k = first + 1; k <= last; ++k) {
    const auto t = p.trimmed(k);
    if (!starts_with(t, "GPU") || !row(t)) continue;
    std::size_t i = 0;
    int column = 0;
    while (i < t.size()) {
      while (i < t.size() && (t[i] == ' ' || t[i] == '\t')) ++i;
      const auto start = i;
      while (i < t.size() && t[i] != ' ' && t[i] != '\t') ++i;
      const auto w = t.substr(start, i - start);
      if (column > 0 && (starts_with(w, "NV") || w == "PIX" || w == "PXB" || w == "PHB" || w == "NODE" || w == "SYS"))
        links.emplace(w);
      ++column;
    }
  }
  if (!links.empty()) {
    std::vector<std::string> l(links.begin(), links.end());
    out.note = "links seen: " + join(l, ", ");
  }
}

}  // namespace

BlockReader nvsmi_topo_reader() { return {"nvidia-smi topo -m", opens, continues, read}; }

}  // namespace gpucheck
