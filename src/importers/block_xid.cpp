// NVIDIA Xid lines from `dmesg`, `journalctl -k` or /var/log/syslog: the
// probe's own parser reads "NVRM: Xid (PCI:0000:18:00): 79, …" wherever on
// the line it stands, so every timestamp prefix works.
#include "importers/block_readers.hpp"
#include "parse/kernel_log.hpp"
#include "util/strings.hpp"

namespace gpucheck {

namespace {

bool kernel_line(std::string_view t) { return t.find("NVRM: ") != std::string_view::npos; }

Opens opens(const PasteText& p, std::size_t i) {
  const auto t = p.trimmed(i);
  const bool xid = t.find("NVRM: Xid") != std::string_view::npos || t.find("NVRM: The NVIDIA GPU ") != std::string_view::npos;
  return xid ? Opens::maybe : Opens::no;
}

bool continues(const PasteText& p, std::size_t, std::size_t i) { return kernel_line(p.trimmed(i)); }

void read(const PasteText& p, std::size_t first, std::size_t last, BlockFacts& out) {
  out.facts.kernel_log.xid_events = parse_xid_events(p.joined(first, last));
  out.facts.kernel_log.read = true;
  out.facts.kernel_log.source = p.span(first, last, "kernel log");
}

}  // namespace

BlockReader xid_reader() { return {"kernel log (Xid)", opens, continues, read}; }

}  // namespace gpucheck
