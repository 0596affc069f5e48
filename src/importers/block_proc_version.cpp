// /proc/driver/nvidia/version: the "NVRM version:" line and the "GCC
// version:" line under it, read by the probe's own parser.
#include "importers/block_readers.hpp"
#include "parse/nvidia_proc.hpp"
#include "util/strings.hpp"

namespace gpucheck {

namespace {

Opens opens(const PasteText& p, std::size_t i) { return starts_with(p.trimmed(i), "NVRM version:") ? Opens::surely : Opens::no; }

bool continues(const PasteText& p, std::size_t first, std::size_t i) {
  return i == first + 1 && starts_with(p.trimmed(i), "GCC version:");
}

void read(const PasteText& p, std::size_t first, std::size_t last, BlockFacts& out) {
  std::string text;
  for (std::size_t k = first; k <= last; ++k) text.append(p.trimmed(k)).append("\n");
  auto m = parse_nvrm_version(text);
  if (!m) {
    out.problem = Problem{Reason::malformed, p.at(first), m.problem().detail};
    return;
  }
  out.facts.nvidia_driver.kernel_module = std::move(m.value());
  out.facts.nvidia_driver.kernel_module.source = p.span(first, last, "/proc/driver/nvidia/version");
  out.facts.nvidia_driver.kernel_module_loaded = true;
}

}  // namespace

BlockReader proc_version_reader() { return {"/proc/driver/nvidia/version", opens, continues, read}; }

}  // namespace gpucheck
