// `rocm-smi`, concise (the default table: "Device [Model : Revision] Temp …"
// rows with the product name under each) and full (`rocm-smi -a`:
// "GPU[0] : Device ID: 0x74a1", "Card series: …", and "Driver version:" in
// its header), from the "ROCm System Management Interface" banner to "End
// of ROCm SMI Log". Each GPU becomes a KFD node; the driver's version is
// the amdgpu module's.
#include <map>

#include "importers/block_readers.hpp"
#include "importers/block_util.hpp"
#include "util/strings.hpp"

namespace gpucheck {

namespace {

bool contains(std::string_view s, std::string_view what) { return s.find(what) != std::string_view::npos; }

Opens opens(const PasteText& p, std::size_t i) {
  return contains(p.trimmed(i), "ROCm System Management Interface") ? Opens::surely : Opens::no;
}

bool continues(const PasteText& p, std::size_t, std::size_t i) { return !contains(p.lines[i - 1], "End of ROCm SMI Log"); }

// "0x74a1" -> "74a1"
std::optional<std::string> hex_id(std::string_view v) {
  v = trim(v);
  if (!starts_with(v, "0x") || v.size() < 3) return std::nullopt;
  return to_lower(v.substr(2));
}

void read(const PasteText& p, std::size_t first, std::size_t last, BlockFacts& out) {
  std::map<int, KfdNode> gpus;
  bool concise = false, rows = false;
  for (std::size_t k = first; k <= last; ++k) {
    const auto t = p.trimmed(k);
    if (contains(t, "Concise Info")) concise = true;
    if (concise) {
      if (starts_with(t, "Device") && contains(t, "Temp")) rows = true;
      if (!rows || starts_with(t, "===")) continue;
      // "0       [0x74a1 : 0x00]       35.0°C …", the name on the line under it.
      const auto w = first_word(t);
      const auto index = parse_int(w);
      if (!index || *index < 0 || *index > 1024) continue;
      auto& n = gpus[static_cast<int>(*index)];
      n.node = static_cast<int>(*index);
      n.source = p.at(k);
      if (const auto open = t.find('['); open != std::string_view::npos)
        n.device_id = hex_id(t.substr(open + 1, t.find(' ', open) - open - 1));
      const auto next = p.trimmed(k + 1);
      if (k + 1 <= last && !next.empty() && !parse_int(first_word(next)) && !starts_with(next, "===")) n.name = std::string(next);
      continue;
    }
    if (const auto kv = key_text(t); kv && kv->key == "Driver version" && looks_like_version(kv->value)) {
      out.facts.software.rocm.amdgpu_module_version = std::string(kv->value);
      out.where["software.rocm.amdgpu_module_version"] = p.at(k);
      continue;
    }
    if (!starts_with(t, "GPU[")) continue;
    const auto close = t.find(']');
    const auto index = close == std::string_view::npos ? std::nullopt : parse_int(t.substr(4, close - 4));
    if (!index || *index < 0 || *index > 1024) continue;
    const auto rest = trim(t.substr(close + 1));
    if (!starts_with(rest, ":")) continue;
    const auto kv = key_text(rest.substr(1));
    if (!kv) continue;
    auto& n = gpus[static_cast<int>(*index)];
    n.node = static_cast<int>(*index);
    if (n.source.empty()) n.source = p.at(k);
    if (kv->key == "Device ID") n.device_id = hex_id(kv->value);
    else if (kv->key == "Card series" || kv->key == "Card Series") n.name = std::string(kv->value);
    else if (kv->key == "GFX Version" && starts_with(kv->value, "gfx")) n.gfx_target = std::string(kv->value);
  }
  for (auto& [index, n] : gpus) out.facts.software.rocm.gpu_nodes.push_back(std::move(n));
  out.kind = concise ? "rocm-smi" : "rocm-smi (full)";
}

}  // namespace

BlockReader rocm_smi_reader() { return {"rocm-smi", opens, continues, read}; }

}  // namespace gpucheck
