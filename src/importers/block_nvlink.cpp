// `nvidia-smi nvlink -s` (--status): each GPU's `nvidia-smi -L` line, then
// one "Link N: 25 GB/s" line a link, "Link N: <inactive>" for one that is
// down. Read into the GPUs (as -L's) and their NVLinks (docs/topology.md).
#include "facts/fact_limits.hpp"
#include "importers/block_readers.hpp"
#include "importers/block_util.hpp"
#include "util/strings.hpp"

namespace gpucheck {

namespace {

struct LinkLine {
  int link;
  bool active;
};

std::optional<LinkLine> link_line(std::string_view t) {
  if (!starts_with(t, "Link ")) return std::nullopt;
  const auto colon = t.find(':');
  if (colon == std::string_view::npos) return std::nullopt;
  const auto n = parse_int_in(trim(t.substr(5, colon - 5)), 0, 63);
  const auto value = trim(t.substr(colon + 1));
  if (!n || value.empty()) return std::nullopt;
  return LinkLine{*n, value != "<inactive>"};
}

Opens opens(const PasteText& p, std::size_t i) {
  return listed_gpu(p.trimmed(i)) && i + 1 < p.lines.size() && link_line(p.trimmed(i + 1)) ? Opens::surely : Opens::no;
}

bool continues(const PasteText& p, std::size_t, std::size_t i) {
  const auto t = p.trimmed(i);
  return listed_gpu(t) || link_line(t);
}

void read(const PasteText& p, std::size_t first, std::size_t last, BlockFacts& out) {
  NvidiaSmiFacts s;
  NvLinkFacts links;
  s.source = links.source = p.span(first, last, "nvidia-smi nvlink -s");
  for (std::size_t k = first; k <= last && s.gpus.size() <= kMaxGpusPerNode; ++k) {
    const auto t = p.trimmed(k);
    if (auto g = listed_gpu(t)) {
      SmiGpu gpu = smi_gpu(*g);
      links.gpus.push_back({gpu.pci_bus_id, {}});
      s.gpus.push_back(std::move(gpu));
    } else if (auto l = link_line(t); l && !links.gpus.empty() && links.gpus.back().links.size() < 64) {
      NvLink link;
      link.link = l->link;
      link.active = l->active;
      links.gpus.back().links.push_back(link);
    } else if (!t.empty()) {
      out.unread.push_back(k);
    }
  }
  out.facts.nvidia_smi = std::move(s);
  out.facts.nvlink = std::move(links);
}

}  // namespace

BlockReader nvlink_reader() { return {"nvidia-smi nvlink -s", opens, continues, read}; }

}  // namespace gpucheck
