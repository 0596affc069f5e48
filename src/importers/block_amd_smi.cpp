// `amd-smi static`: "GPU: 0", then indented sections ("ASIC:", "BUS:",
// "DRIVER:", "BOARD:", "VRAM:", …) of "KEY: value" lines. Each GPU becomes
// a KFD node: MARKET_NAME, DEVICE_ID, TARGET_GRAPHICS_VERSION (its gfx
// target), VRAM SIZE; the DRIVER section's VERSION is amdgpu's.
#include "importers/block_readers.hpp"
#include "importers/block_util.hpp"
#include "util/strings.hpp"

namespace gpucheck {

namespace {

std::optional<int> gpu_header(std::string_view t) {
  if (!starts_with(t, "GPU: ")) return std::nullopt;
  const auto n = parse_int(trim(t.substr(5)));
  if (!n || *n < 0 || *n > 1024) return std::nullopt;
  return static_cast<int>(*n);
}

Opens opens(const PasteText& p, std::size_t i) {
  if (!gpu_header(p.trimmed(i))) return Opens::no;
  const auto next = p.trimmed(i + 1);
  return next == "ASIC:" || next == "BUS:" || next == "VBIOS:" || next == "BOARD:" || next == "DRIVER:" || next == "VRAM:" ||
                 next == "IFWI:" || next == "LIMIT:"
             ? Opens::surely
             : Opens::no;
}

bool continues(const PasteText& p, std::size_t, std::size_t i) {
  const auto t = p.trimmed(i);
  return t.empty() || gpu_header(t) || p.lines[i].front() == ' ' || p.lines[i].front() == '\t';
}

void read(const PasteText& p, std::size_t first, std::size_t last, BlockFacts& out) {
  std::string section;
  KfdNode* node = nullptr;
  auto& nodes = out.facts.software.rocm.gpu_nodes;
  nodes.reserve(last - first + 1);  // pointers into it stay valid
  for (std::size_t k = first; k <= last; ++k) {
    const auto t = p.trimmed(k);
    if (auto g = gpu_header(t)) {
      nodes.push_back(KfdNode{});
      node = &nodes.back();
      node->node = *g;
      node->source = p.at(k);
      continue;
    }
    const auto kv = key_text(t);
    if (!kv || !node) continue;
    if (kv->value.empty()) {
      section = std::string(kv->key);
      continue;
    }
    if (is_no_value(kv->value)) continue;
    if (section == "ASIC" && kv->key == "MARKET_NAME") node->name = std::string(kv->value);
    else if (section == "ASIC" && kv->key == "DEVICE_ID" && starts_with(kv->value, "0x")) node->device_id = to_lower(kv->value.substr(2));
    else if (section == "ASIC" && kv->key == "TARGET_GRAPHICS_VERSION") node->gfx_target = std::string(kv->value);
    else if (section == "VRAM" && kv->key == "SIZE") {
      // "196288 MB"
      const auto n = parse_int(first_word(kv->value));
      const auto unit = trim(kv->value.substr(first_word(kv->value).size()));
      if (n && *n >= 0 && *n < (std::int64_t{1} << 40) && (unit == "MB" || unit == "MiB")) node->vram_bytes = static_cast<std::uint64_t>(*n) << 20;
    } else if (section == "DRIVER" && kv->key == "VERSION" && looks_like_version(kv->value)) {
      out.facts.software.rocm.amdgpu_module_version = std::string(kv->value);
      out.where["software.rocm.amdgpu_module_version"] = p.at(k);
    } else if (section == "DRIVER" && kv->key == "OS_KERNEL_VERSION") {
      out.facts.system.kernel_release = std::string(kv->value);
      out.where["system.kernel_release"] = p.at(k);
    }
  }
}

}  // namespace

BlockReader amd_smi_reader() { return {"amd-smi static", opens, continues, read}; }

}  // namespace gpucheck
