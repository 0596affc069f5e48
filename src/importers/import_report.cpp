// Recognising a report by its content, then handing it to its reader. The
// order matters only for pastes that hold two reports: collect_env is read
// before an nvidia-smi table, since it says more about the software.
#include "importers/import_report.hpp"

#include <nlohmann/json.hpp>

#include "importers/collect_env.hpp"
#include "importers/gpucheck_json.hpp"
#include "importers/nvsmi_import.hpp"
#include "parse/nvsmi_labels.hpp"
#include "parse/nvsmi_table.hpp"
#include "util/strings.hpp"
#include "util/json_text.hpp"

namespace gpucheck {

namespace {

constexpr const char* kKnown =
    "gpucheck reads: gpucheck's own JSON (gpucheck probe --json, schema gpucheck.facts/1), "
    "PyTorch's collect_env (python -m torch.utils.collect_env), vLLM's collect_env, "
    "nvidia-smi -q -x, nvidia-smi -q, and the plain nvidia-smi table";

// Text is UTF-8 without control characters other than whitespace; anything
// else (a NUL, a stray 0x01, a broken multi-byte sequence) is binary.
bool is_binary(std::string_view s) {
  for (std::size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != '\v') return true;
    if (c < 0x80) continue;
    const std::size_t extra = (c & 0xE0) == 0xC0 ? 1 : (c & 0xF0) == 0xE0 ? 2 : (c & 0xF8) == 0xF0 ? 3 : 0;
    if (extra == 0) return true;  // a continuation byte or 0xF8..0xFF where a sequence should start
    for (std::size_t k = 1; k <= extra; ++k)
      if (i + k >= s.size() || (static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return true;
    i += extra;
  }
  return false;
}

bool is_nvsmi_query(std::string_view text) {
  if (text.find("==============NVSMI LOG==============") != std::string_view::npos) return true;
  if (text.find("Attached GPUs") == std::string_view::npos) return false;
  for (const auto& l : kNvsmiDriverLabels)
    if (text.find(l.text) != std::string_view::npos) return true;
  return false;
}

Problem unknown(const std::string& name, const std::string& why) {
  return Problem{Reason::malformed, name, why + "; " + kKnown};
}

}  // namespace

std::string_view to_string(ReportFormat f) {
  switch (f) {
    case ReportFormat::gpucheck_json: return "gpucheck_json";
    case ReportFormat::torch_collect_env: return "torch_collect_env";
    case ReportFormat::vllm_collect_env: return "vllm_collect_env";
    case ReportFormat::nvidia_smi_xml: return "nvidia_smi_xml";
    case ReportFormat::nvidia_smi_query: return "nvidia_smi_query";
    case ReportFormat::nvidia_smi_table: return "nvidia_smi_table";
  }
  return "unknown";
}

namespace {

Result<ImportedReport> import_any(std::string_view text, std::string_view name_view) {
  const std::string name(name_view);
  if (starts_with(text, "\xEF\xBB\xBF")) text.remove_prefix(3);  // a UTF-8 byte order mark
  if (trim(text).empty()) return unknown(name, "the report is empty");
  if (is_binary(text)) return unknown(name, "the report is binary data, not text");

  const auto body = trim(text);
  if (body.front() == '{') {
    // gpucheck writes "schema" first: a look at the head recognises the
    // format without parsing a fleet's worth of JSON twice.
    const auto head = body.substr(0, 4096);
    if (head.find("\"gpucheck.check/") != std::string_view::npos) {
      // `gpucheck check --json` carries the facts it judged (their own
      // "schema" may fall in the head too, so this test comes first).
      auto parsed = parse_json(body);
      if (!parsed) return Problem{Reason::malformed, name, parsed.problem().detail};
      const auto& j = *parsed;
      if (!j.is_object() || !j.contains("facts") || !j["facts"].is_object())
        return unknown(name, "gpucheck check JSON without its \"facts\" object");
      auto f = facts_from_json(dump_json(j["facts"]), name);
      if (!f) return f.problem();
      return ImportedReport{ReportFormat::gpucheck_json, std::move(f.value())};
    }
    if (head.find("\"gpucheck.facts/") != std::string_view::npos) {
      auto f = facts_from_json(text, name);
      if (!f) return f.problem();
      return ImportedReport{ReportFormat::gpucheck_json, std::move(f.value())};
    }
    return unknown(name, "JSON, but not gpucheck's facts (no \"schema\": \"gpucheck.facts/…\")");
  }
  if (text.find("<nvidia_smi_log") != std::string_view::npos) {
    auto f = nvsmi_facts(text, NvsmiForm::xml, name);
    if (!f) return f.problem();
    return ImportedReport{ReportFormat::nvidia_smi_xml, std::move(f.value())};
  }
  if (looks_like_collect_env(text)) {
    const bool vllm = looks_like_vllm_collect_env(text);
    auto facts = collect_env_facts(parse_collect_env(text), vllm ? "vllm collect_env" : "collect_env", name);
    return ImportedReport{vllm ? ReportFormat::vllm_collect_env : ReportFormat::torch_collect_env, std::move(facts)};
  }
  if (is_nvsmi_query(text)) {
    auto f = nvsmi_facts(text, NvsmiForm::query, name);
    if (!f) return f.problem();
    return ImportedReport{ReportFormat::nvidia_smi_query, std::move(f.value())};
  }
  if (looks_like_nvsmi_table(text)) {
    auto f = nvsmi_facts(text, NvsmiForm::table, name);
    if (!f) return f.problem();
    return ImportedReport{ReportFormat::nvidia_smi_table, std::move(f.value())};
  }
  return unknown(name, "not a report format gpucheck knows");
}

}  // namespace

Result<ImportedReport> import_report(std::string_view text, std::string_view name) {
  auto r = import_any(text, name);
  if (r) r.value().facts.from_report = true;
  return r;
}

}  // namespace gpucheck
