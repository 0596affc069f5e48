// PyTorch's and vLLM's collect_env as a block of a paste: whole, or any part
// of it (a report whose first half was cut off starts at "Versions of
// relevant libraries:"). The reading itself is collect_env_parse.cpp's.
#include "facts/fact_limits.hpp"
#include "importers/block_readers.hpp"
#include "importers/block_util.hpp"
#include "importers/collect_env.hpp"
#include "util/strings.hpp"

namespace gpucheck {

namespace {

// vLLM's sectioned form: a rule of '=', a section name, a rule.
bool vllm_section(const PasteText& p, std::size_t i) {
  const auto t = p.trimmed(i);
  if (!starts_with(t, "=====") || t.find_first_not_of('=') != std::string_view::npos) return false;
  const auto name = p.trimmed(i + 1);
  return name == "System Info" || name == "PyTorch Info" || name == "Python Environment" || name == "CUDA / GPU Info" ||
         name == "CPU Info" || name == "Versions of relevant libraries" || name == "vLLM Info" ||
         name == "Environment Variables";
}

Opens opens(const PasteText& p, std::size_t i) {
  const auto t = p.trimmed(i);
  if (opens_collect_env(t) || vllm_section(p, i)) return Opens::surely;
  return is_collect_env_key(t) ? Opens::maybe : Opens::no;
}

// An error or a traceback ends the report: it is the program's, not collect_env's.
bool ends_report(std::string_view t) {
  if (starts_with(t, "Traceback") || starts_with(t, "File \"") || is_prose(t)) return true;
  const auto colon = t.find(": ");
  if (colon == std::string_view::npos) return false;
  const auto key = t.substr(0, colon);
  return key.find(' ') == std::string_view::npos &&
         (ends_with(key, "Error") || ends_with(key, "Warning") || ends_with(key, "Exception"));
}

bool continues(const PasteText& p, std::size_t, std::size_t i) {
  const auto t = p.trimmed(i);
  // Another report's banner starts a block of its own.
  return !ends_report(t) && !starts_with(t, "Collecting environment information");
}

void read(const PasteText& p, std::size_t first, std::size_t last, BlockFacts& out) {
  const std::string text = p.joined(first, last);
  auto report = parse_collect_env(text);
  // One GPU past the limit is enough for import_paste to refuse the report.
  if (report.gpus.size() > kMaxGpusPerNode) report.gpus.resize(kMaxGpusPerNode + 1);
  // Only the filler up to the next block is looked at: a scan to the end
  // for every block made a paste of many reports quadratic.
  report.ends_paste = true;
  for (std::size_t k = last + 1; k < p.lines.size() && report.ends_paste; ++k)
    if (!is_paste_filler(p.trimmed(k))) report.ends_paste = false;
  const std::string label = report.vllm ? "vllm collect_env" : "collect_env";
  const LineSource at{p.name, static_cast<int>(first)};
  out.facts = collect_env_facts(report, label, at);
  out.kind = label;
  if (report.driver_version && !is_no_value(report.driver_version->text))
    out.where["nvidia_smi.driver_version"] = at(report.driver_version->line);
  if (report.hip_runtime) out.where["software.rocm.hip_version"] = at(report.hip_runtime->line);
  if (report.os) out.where["system.arch"] = at(report.os->line);
  if (report.python_version) out.where["python.version"] = at(report.python_version->line);
}

}  // namespace

BlockReader collect_env_reader() { return {"collect_env", opens, continues, read}; }

}  // namespace gpucheck
