// `nvidia-smi nvlink -s` (--status) and `nvidia-smi nvlink -e`
// (--errorcounters): each GPU's `nvidia-smi -L` line, then its links: -s
// prints "Link N: 25 GB/s" a link, "Link N: <inactive>" one that is down;
// -e prints "Link N: Replay Errors: 0", "… Recovery Errors: 0", "… CRC
// Errors: 0", a blank line between links. Read into the GPUs (as -L's) and
// their NVLinks (docs/topology.md); a GPU both list is one GPU.
#include <algorithm>
#include <map>

#include "facts/fact_limits.hpp"
#include "importers/block_readers.hpp"
#include "importers/block_util.hpp"
#include "util/strings.hpp"

namespace gpucheck {

namespace {

constexpr std::size_t kMaxLinksPerGpu = 64;

enum class Counter { none, replay, recovery, crc_flit, crc_data, unreadable };

struct LinkLine {
  int link;
  Counter counter = Counter::none;  // none: a -s line
  bool active = false;              // -s
  std::uint64_t count = 0;          // -e
};

// -e's counter names. Its one "CRC Errors" line is kept as the flow-control
// (flit) CRC count, the one NVML counts per link for every NVLink version;
// the rule reads any of the four, so which CRC it is changes no verdict.
Counter counter_of(std::string_view name) {
  if (name == "Replay Errors") return Counter::replay;
  if (name == "Recovery Errors") return Counter::recovery;
  if (name == "CRC Errors" || name == "CRC Flit Errors") return Counter::crc_flit;
  if (name == "CRC Data Errors") return Counter::crc_data;
  return Counter::none;
}

std::optional<LinkLine> link_line(std::string_view t) {
  if (!starts_with(t, "Link ")) return std::nullopt;
  const auto colon = t.find(':');
  if (colon == std::string_view::npos) return std::nullopt;
  const auto n = parse_int_in(trim(t.substr(5, colon - 5)), 0, 63);
  const auto value = trim(t.substr(colon + 1));
  if (!n || value.empty()) return std::nullopt;
  const auto inner = value.find(':');
  if (inner == std::string_view::npos) return LinkLine{*n, Counter::none, value != "<inactive>", 0};
  // Of -e's shape but a name or count not understood: still the block's line.
  const auto counter = counter_of(trim(value.substr(0, inner)));
  const auto count = parse_int(trim(value.substr(inner + 1)));
  if (counter == Counter::none || !count || *count < 0) return LinkLine{*n, Counter::unreadable, false, 0};
  return LinkLine{*n, counter, false, static_cast<std::uint64_t>(*count)};
}

// "[...]" or "...": where a person cut the middle out of a long listing.
bool elision(std::string_view t) { return t == "[...]" || t == "..." || t == "[…]" || t == "…"; }

Opens opens(const PasteText& p, std::size_t i) {
  return listed_gpu(p.trimmed(i)) && i + 1 < p.lines.size() && link_line(p.trimmed(i + 1)) ? Opens::surely : Opens::no;
}

bool continues(const PasteText& p, std::size_t, std::size_t i) {
  const auto t = p.trimmed(i);
  if (listed_gpu(t) || link_line(t)) return true;
  // -e's blank line between links, and a cut: only where links follow.
  if (!t.empty() && !elision(t)) return false;
  for (std::size_t k = i + 1; k < p.lines.size() && k <= i + 3; ++k) {
    const auto next = p.trimmed(k);
    if (link_line(next)) return true;
    if (!next.empty() && !elision(next)) return false;
  }
  return false;
}

NvLink& link_of(GpuNvLinks& gpu, int n) {
  for (auto& l : gpu.links)
    if (l.link == n) return l;
  NvLink l;
  l.link = n;
  l.state_read = false;  // until a -s line says
  gpu.links.push_back(l);
  return gpu.links.back();
}

void read(const PasteText& p, std::size_t first, std::size_t last, BlockFacts& out) {
  NvidiaSmiFacts s;
  NvLinkFacts links;
  std::map<int, std::size_t> by_index;  // a GPU listed by -s and again by -e
  std::size_t at = 0;
  bool status = false, errors = false;
  for (std::size_t k = first; k <= last; ++k) {
    const auto t = p.trimmed(k);
    if (auto g = listed_gpu(t)) {
      if (auto it = by_index.find(g->index); it != by_index.end()) {
        at = it->second;
        continue;
      }
      if (s.gpus.size() == kMaxGpusPerNode) break;
      at = s.gpus.size();
      by_index[g->index] = at;
      SmiGpu gpu = smi_gpu(*g);
      links.gpus.push_back({gpu.pci_bus_id, {}});
      s.gpus.push_back(std::move(gpu));
    } else if (auto l = link_line(t); l && l->counter != Counter::unreadable && !links.gpus.empty()) {
      auto& gpu = links.gpus[at];
      if (gpu.links.size() == kMaxLinksPerGpu && std::none_of(gpu.links.begin(), gpu.links.end(), [&](const NvLink& x) { return x.link == l->link; }))
        continue;
      NvLink& link = link_of(gpu, l->link);
      switch (l->counter) {
        case Counter::none:
          link.active = l->active;
          link.state_read = true;
          status = true;
          break;
        case Counter::replay: link.replay = l->count; errors = true; break;
        case Counter::recovery: link.recovery = l->count; errors = true; break;
        case Counter::crc_flit: link.crc_flit = l->count; errors = true; break;
        case Counter::crc_data: link.crc_data = l->count; errors = true; break;
        case Counter::unreadable: break;
      }
    } else if (!t.empty() && !elision(t)) {
      out.unread.push_back(k);
    }
  }
  const char* kind = status && errors ? "nvidia-smi nvlink -s and -e" : errors ? "nvidia-smi nvlink -e" : "nvidia-smi nvlink -s";
  if (errors) out.kind = kind;
  s.source = links.source = p.span(first, last, kind);
  out.facts.nvidia_smi = std::move(s);
  out.facts.nvlink = std::move(links);
}

}  // namespace

BlockReader nvlink_reader() { return {"nvidia-smi nvlink -s", opens, continues, read}; }

}  // namespace gpucheck
