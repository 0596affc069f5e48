// `nvidia-smi topo -m` and `nvidia-smi topo -p2p <r|w|n|a|p>`: a header of
// GPUs (and NICs), one row per device with a word for each other ("X" for
// itself; -m: "NV18", "PIX", "PXB", "PHB", "NODE", "SYS"; -p2p: "OK", "CNS",
// "GNS", "TNS", "NS", "DR", "U"), then the legend. The cells between GPUs
// are read into the report's topo matrices (docs/topology.md, "Pastes").
// -p2p does not print its mode: it is read from the command line pasted
// just above, where there is one.
#include <map>
#include <set>

#include "facts/fact_limits.hpp"
#include "importers/block_readers.hpp"
#include "importers/block_util.hpp"
#include "util/strings.hpp"

namespace gpucheck {

namespace {

// "GPU3" -> 3; "NIC0", "mlx5_0", anything else: none.
std::optional<int> gpu_index(std::string_view w) {
  if (!starts_with(w, "GPU")) return std::nullopt;
  return parse_int_in(w.substr(3), 0, 1 << 20);
}

bool header(std::string_view t) {
  return starts_with(t, "GPU0") && (t.find("GPU1") != std::string_view::npos || t.find("CPU Affinity") != std::string_view::npos);
}

bool row(std::string_view t) {
  if (!(starts_with(t, "GPU") || starts_with(t, "NIC") || starts_with(t, "mlx"))) return false;
  const auto w = words_of(t);
  for (std::size_t i = 1; i < w.size(); ++i)
    if (w[i] == "X") return true;
  return false;
}

// What -p2p prints in a cell (nvidia-smi's legend).
bool p2p_word(std::string_view w) { return w == "OK" || w == "CNS" || w == "GNS" || w == "TNS" || w == "NS" || w == "DR" || w == "U"; }

Opens opens(const PasteText& p, std::size_t i) { return header(p.trimmed(i)) ? Opens::surely : Opens::no; }

bool continues(const PasteText& p, std::size_t, std::size_t i) {
  const auto t = p.trimmed(i);
  // The rows, then "Legend:" and its indented "X    = Self" lines, and the NIC legend.
  return t.empty() || row(t) || starts_with(t, "GPU") || starts_with(t, "NIC") || t == "Legend:" || t == "NIC Legend:" ||
         t.find(" = ") != std::string_view::npos || starts_with(t, "X ");
}

// "$ nvidia-smi topo -p2p r" on one of the two lines above the matrix: "r".
std::string p2p_mode(const PasteText& p, std::size_t first) {
  for (std::size_t back = 1; back <= 2 && back <= first; ++back) {
    const auto t = p.trimmed(first - back);
    const auto at = t.find("topo -p2p ");
    if (at == std::string_view::npos) continue;
    const auto mode = first_word(t.substr(at + 10));
    if (!mode.empty() && mode.find_first_not_of("rwnap") == std::string_view::npos) return std::string(mode);
  }
  return "";
}

void read(const PasteText& p, std::size_t first, std::size_t last, BlockFacts& out) {
  // The header's device columns: GPUs by index, NICs as none.
  std::vector<std::optional<int>> columns;
  for (auto w : words_of(p.trimmed(first))) {
    if (!(starts_with(w, "GPU") || starts_with(w, "NIC") || starts_with(w, "mlx")) || w == "GPU") break;  // "GPU NUMA ID"
    if (columns.size() == kMaxPeerRateGpus * 2) break;
    columns.push_back(gpu_index(w));
  }
  TopoMatrix m;
  std::set<std::string> words;
  bool all_p2p = true;
  for (std::size_t k = first + 1; k <= last; ++k) {
    const auto t = p.trimmed(k);
    if (!row(t)) continue;
    const auto w = words_of(t);
    const auto src = gpu_index(w[0]);
    if (!src) continue;
    for (std::size_t i = 1; i < w.size() && i - 1 < columns.size(); ++i) {
      const auto dst = columns[i - 1];
      if (!dst || *dst == *src || w[i] == "X") continue;
      if (m.pairs.size() == kMaxPeerRateGpus * (kMaxPeerRateGpus - 1)) break;
      m.pairs.push_back({*src, *dst, std::string(w[i])});
      words.emplace(w[i]);
      all_p2p &= p2p_word(w[i]);
    }
  }
  const bool p2p = !m.pairs.empty() && all_p2p;
  if (p2p) {
    const auto mode = p2p_mode(p, first);
    m.test = "nvidia-smi topo -p2p" + (mode.empty() ? "" : " " + mode);
    out.kind = "nvidia-smi topo -p2p";
    std::map<std::string, std::size_t> count;
    for (auto& x : m.pairs) ++count[x.word];
    std::vector<std::string> said;
    for (auto& [word, n] : count) said.push_back(word + " " + std::to_string(n));
    out.note = "peer access between " + std::to_string(m.pairs.size()) + " ordered pairs of GPUs" +
               (mode.empty() ? " (mode not shown: paste the command line with it)" : " (-p2p " + mode + ")") + ": " + join(said, ", ");
  } else {
    m.test = "nvidia-smi topo -m";
    std::vector<std::string> links;
    for (auto& w : words)
      if (starts_with(w, "NV") || w == "PIX" || w == "PXB" || w == "PHB" || w == "NODE" || w == "SYS") links.push_back(w);
    if (!links.empty()) out.note = "links seen: " + join(links, ", ");
  }
  m.source = p.span(first, last, m.test);
  if (!m.pairs.empty()) out.topo = std::move(m);
}

}  // namespace

BlockReader nvsmi_topo_reader() { return {"nvidia-smi topo -m", opens, continues, read}; }

}  // namespace gpucheck
