// `rocminfo`: "ROCk module is loaded", the HSA system attributes, then one
// "Agent N" per CPU and GPU with indented "Key: value" lines. A GPU agent
// ("Device Type: GPU") becomes a KFD node as the probe records one: its
// gfx target ("Name: gfx90a"), marketing name, PCI device id ("Chip ID:
// 29704(0x7408)") and SIMD count (compute units times SIMDs per CU).
#include "importers/block_readers.hpp"
#include "importers/block_util.hpp"
#include "util/strings.hpp"

namespace gpucheck {

namespace {

Opens opens(const PasteText& p, std::size_t i) {
  const auto t = p.trimmed(i);
  if (starts_with(t, "ROCk module") || t == "HSA System Attributes" || t == "HSA Agents") return Opens::surely;
  // An excerpt of one agent: "*******" / "Agent 2" / "*******" / "  Name: gfx1036"
  return starts_with(t, "*******") && starts_with(p.trimmed(i + 1), "Agent ") ? Opens::maybe : Opens::no;
}

bool continues(const PasteText& p, std::size_t, std::size_t i) {
  if (p.trimmed(i - 1) == "*** Done ***") return false;
  const auto t = p.trimmed(i);
  return !is_prose(t) && (t.empty() || starts_with(t, "===") || starts_with(t, "***") || starts_with(t, "Agent ") ||
                          t.find(':') != std::string_view::npos || p.lines[i].front() == ' ' || starts_with(t, "HSA "));
}

void read(const PasteText& p, std::size_t first, std::size_t last, BlockFacts& out) {
  struct Agent {
    int index = -1;
    std::size_t line = 0;
    std::optional<std::string> name, marketing, type, chip;
    std::optional<long long> cus, simds_per_cu;
  };
  std::vector<Agent> agents;
  for (std::size_t k = first; k <= last; ++k) {
    const auto t = p.trimmed(k);
    if (starts_with(t, "Agent ")) {
      if (auto n = parse_int_in(t.substr(6), 0, 1 << 20)) agents.push_back(Agent{*n, k, {}, {}, {}, {}, {}, {}});
      continue;
    }
    if (agents.empty()) continue;
    const auto kv = key_text(t);
    if (!kv) continue;
    auto& a = agents.back();
    // The first "Name:" of an agent is its own; its ISA's "Name: amdgcn-amd-amdhsa--gfx90a" comes later.
    if (kv->key == "Name" && !a.name) a.name = std::string(kv->value);
    else if (kv->key == "Marketing Name" && !a.marketing) a.marketing = std::string(kv->value);
    else if (kv->key == "Device Type" && !a.type) a.type = std::string(kv->value);
    else if (kv->key == "Chip ID" && !a.chip) a.chip = std::string(kv->value);
    else if (kv->key == "Compute Unit" && !a.cus) a.cus = parse_int(kv->value);
    else if (kv->key == "SIMDs per CU" && !a.simds_per_cu) a.simds_per_cu = parse_int(kv->value);
  }
  for (auto& a : agents) {
    // an excerpt may stop before "Device Type": a gfx name is a GPU's
    const bool gpu = a.type ? *a.type == "GPU" : a.name && starts_with(*a.name, "gfx");
    if (!gpu) continue;
    KfdNode n;
    n.node = a.index - 1;  // rocminfo counts agents from 1, KFD nodes from 0, CPUs included in both
    if (a.name && starts_with(*a.name, "gfx")) n.gfx_target = a.name;
    n.name = a.marketing;
    if (a.cus && a.simds_per_cu) n.simd_count = static_cast<int>(*a.cus * *a.simds_per_cu);
    if (a.chip) {
      // "29704(0x7408)" -> "7408"
      const auto open = a.chip->find("(0x");
      if (open != std::string::npos && a.chip->back() == ')') n.device_id = to_lower(a.chip->substr(open + 3, a.chip->size() - open - 4));
    }
    n.source = p.at(a.line);
    out.facts.software.rocm.gpu_nodes.push_back(std::move(n));
  }
}

}  // namespace

BlockReader rocminfo_reader() { return {"rocminfo", opens, continues, read}; }

}  // namespace gpucheck
