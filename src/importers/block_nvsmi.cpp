// nvidia-smi's three whole outputs as blocks of a paste: -q -x, -q and the
// plain table. The parsers are the probe's own (probes/parse/nvsmi*.hpp);
// this file only finds where each output starts and ends.
#include "importers/block_readers.hpp"
#include "importers/block_util.hpp"
#include "importers/nvsmi_import.hpp"
#include "parse/nvsmi_labels.hpp"
#include "util/strings.hpp"

namespace gpucheck {

namespace {

bool contains(std::string_view s, std::string_view what) { return s.find(what) != std::string_view::npos; }

void read_form(const PasteText& p, std::size_t first, std::size_t last, BlockFacts& out, NvsmiForm form, std::string_view kind) {
  auto f = nvsmi_facts(p.joined(first, last), form, p.name + ":" + std::to_string(first + 1), p.span(first, last, kind));
  if (!f) {
    out.problem = f.problem();
    return;
  }
  out.facts = std::move(f.value());
}

// --- nvidia-smi -q -x: from "<?xml" (or the root element) to "</nvidia_smi_log>".
Opens xml_opens(const PasteText& p, std::size_t i) {
  const auto t = p.trimmed(i);
  if (contains(t, "<nvidia_smi_log")) return Opens::surely;
  if (!starts_with(t, "<?xml")) return Opens::no;
  for (std::size_t k = i + 1; k < i + 4 && k < p.lines.size(); ++k)
    if (contains(p.lines[k], "nvidia_smi_log")) return Opens::surely;
  return Opens::no;
}
bool xml_continues(const PasteText& p, std::size_t, std::size_t i) { return !contains(p.lines[i - 1], "</nvidia_smi_log>"); }
void xml_read(const PasteText& p, std::size_t first, std::size_t last, BlockFacts& out) {
  read_form(p, first, last, out, NvsmiForm::xml, "nvidia-smi -q -x");
}

// --- nvidia-smi -q: the "NVSMI LOG" banner, or its first keys when the
// banner was not pasted; then indented "Key : value" lines.
bool query_key(std::string_view t, std::string_view key) { return starts_with(t, key) && contains(t, " : "); }
Opens query_opens(const PasteText& p, std::size_t i) {
  const auto t = p.trimmed(i);
  if (contains(t, "==============NVSMI LOG==============")) return Opens::surely;
  if (!query_key(t, "Timestamp") && !query_key(t, "Driver Version") && !query_key(t, "KMD Version")) return Opens::no;
  for (std::size_t k = i + 1; k < i + 6 && k < p.lines.size(); ++k)
    if (query_key(p.trimmed(k), "Attached GPUs")) return Opens::surely;
  return Opens::no;
}
bool query_continues(const PasteText& p, std::size_t, std::size_t i) {
  const auto raw = p.lines[i];
  const auto t = trim(raw);
  if (contains(t, "NVSMI LOG")) return false;  // the next report
  if (t.empty() || raw.front() == ' ' || raw.front() == '\t' || contains(t, " : ") || starts_with(t, "GPU ")) return true;
  // A section's title at the margin ("vGPU Driver Capability"), its keys indented below.
  const auto next = i + 1 < p.lines.size() ? p.lines[i + 1] : std::string_view{};
  return !next.empty() && (next.front() == ' ' || next.front() == '\t') && contains(next, " : ");
}
void query_read(const PasteText& p, std::size_t first, std::size_t last, BlockFacts& out) {
  read_form(p, first, last, out, NvsmiForm::query, "nvidia-smi -q");
  if (!out.facts.nvidia_smi) return;
  // Where the driver's version was stated, for a conflict with another block.
  for (std::size_t k = first; k <= last; ++k)
    if (query_key(p.trimmed(k), "Driver Version") || query_key(p.trimmed(k), "KMD Version")) {
      out.where["nvidia_smi.driver_version"] = p.at(k);
      break;
    }
}

// --- the table: its banner, or the rule or time stamp just above it.
bool is_table_banner(std::string_view t) {
  if (!contains(t, "NVIDIA-SMI ")) return false;
  for (const auto& l : kNvsmiDriverLabels)
    if (contains(t, std::string(l.text) + ":")) return true;
  return false;
}
Opens table_opens(const PasteText& p, std::size_t i) {
  const auto t = p.trimmed(i);
  if (is_table_banner(t)) return Opens::surely;
  for (std::size_t k = i + 1; k < i + 3 && k < p.lines.size(); ++k)
    if (is_table_banner(p.trimmed(k))) return starts_with(t, "+-") || contains(t, " 20") ? Opens::surely : Opens::no;
  return Opens::no;
}
bool table_continues(const PasteText& p, std::size_t first, std::size_t i) {
  const auto t = p.trimmed(i);
  if (is_table_banner(t)) return i <= first + 2;  // a second table is a block of its own
  if (starts_with(t, "|") || starts_with(t, "+")) return true;
  if (!t.empty()) return false;
  // The processes table follows a blank line.
  for (std::size_t k = i + 1; k < i + 3 && k < p.lines.size(); ++k) {
    const auto n = p.trimmed(k);
    if (!n.empty()) return starts_with(n, "+") || starts_with(n, "|");
  }
  return false;
}
void table_read(const PasteText& p, std::size_t first, std::size_t last, BlockFacts& out) {
  read_form(p, first, last, out, NvsmiForm::table, "nvidia-smi");
  for (std::size_t k = first; k <= last; ++k)
    if (is_table_banner(p.trimmed(k))) {
      out.where["nvidia_smi.driver_version"] = p.at(k);
      out.where["nvidia_smi.cuda_version"] = p.at(k);
      break;
    }
}

}  // namespace

BlockReader nvsmi_xml_reader() { return {"nvidia-smi -q -x", xml_opens, xml_continues, xml_read}; }
BlockReader nvsmi_query_reader() { return {"nvidia-smi -q", query_opens, query_continues, query_read}; }
BlockReader nvsmi_table_reader() { return {"nvidia-smi", table_opens, table_continues, table_read}; }

}  // namespace gpucheck
