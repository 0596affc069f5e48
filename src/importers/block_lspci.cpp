// `lspci` lines ("01:00.0 VGA compatible controller: NVIDIA Corporation
// GA102 [GeForce RTX 3090] (rev a1)", with -nn "[10de:2204]"). The GPUs seen
// are said in the block's note, not made PCI facts: lspci without -k does
// not say which driver is bound, and a PCI GPU fact without one reads as
// "no driver bound".
#include <cctype>

#include "importers/block_readers.hpp"
#include "importers/block_util.hpp"
#include "util/strings.hpp"

namespace gpucheck {

namespace {

// "01:00.0 " or "0000:01:00.0 ": a PCI address and a space.
std::size_t address_end(std::string_view t) {
  auto hex = [&](std::size_t i) { return i < t.size() && std::isxdigit(static_cast<unsigned char>(t[i])); };
  std::size_t i = 0;
  if (t.size() > 12 && t[4] == ':') i = 5;
  if (!(hex(i) && hex(i + 1) && t.size() > i + 8 && t[i + 2] == ':' && hex(i + 3) && hex(i + 4) && t[i + 5] == '.' && hex(i + 6) && t[i + 7] == ' '))
    return 0;
  return i + 8;
}

bool device_line(std::string_view t) {
  const auto at = address_end(t);
  return at != 0 && t.find(": ", at) != std::string_view::npos;
}

bool gpu_line(std::string_view t) {
  if (!device_line(t)) return false;
  const auto desc = t.substr(address_end(t));
  const bool display = starts_with(desc, "VGA compatible controller") || starts_with(desc, "3D controller") ||
                       starts_with(desc, "Display controller") || starts_with(desc, "Processing accelerators");
  return display && (desc.find("NVIDIA") != std::string_view::npos || desc.find("[10de:") != std::string_view::npos ||
                     desc.find("Advanced Micro Devices") != std::string_view::npos || desc.find("[1002:") != std::string_view::npos);
}

Opens opens(const PasteText& p, std::size_t i) { return gpu_line(p.trimmed(i)) ? Opens::maybe : Opens::no; }

bool continues(const PasteText& p, std::size_t, std::size_t i) {
  const auto t = p.trimmed(i);
  // Other devices, and -v / -k's indented detail lines.
  return device_line(t) || (!t.empty() && (p.lines[i].front() == '\t' || p.lines[i].front() == ' ') && t.find(':') != std::string_view::npos);
}

void read(const PasteText& p, std::size_t first, std::size_t last, BlockFacts& out) {
  std::vector<std::string> gpus;
  for (std::size_t k = first; k <= last; ++k) {
    const auto t = p.trimmed(k);
    if (!gpu_line(t)) continue;
    const auto at = address_end(t);
    const auto desc = t.substr(t.find(": ", at) + 2);
    gpus.push_back(std::string(t.substr(0, at - 1)) + " " + std::string(desc));
  }
  if (!gpus.empty()) out.note = "GPUs on the PCI bus: " + join(gpus, "; ");
}

}  // namespace

BlockReader lspci_reader() { return {"lspci", opens, continues, read}; }

}  // namespace gpucheck
