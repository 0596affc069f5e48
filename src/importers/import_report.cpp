// Recognising a report by its content: gpucheck's own JSON whole, any other
// text as a paste of blocks (paste.hpp), each read by its reader.
#include "importers/import_report.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>

#include "facts/fact_limits.hpp"
#include "importers/gpucheck_json.hpp"
#include "importers/paste.hpp"
#include "importers/paste_encoding.hpp"
#include "importers/prose_facts.hpp"
#include "importers/repo_names.hpp"
#include "importers/report_notes.hpp"
#include "util/strings.hpp"
#include "util/json_text.hpp"
#include "util/utf8.hpp"

namespace gpucheck {

namespace {

constexpr const char* kKnown =
    "gpucheck reads: gpucheck's own JSON (gpucheck probe --json, schema gpucheck.facts/1), and any text holding "
    "PyTorch's or vLLM's collect_env, nvidia-smi, nvidia-smi -q, nvidia-smi -q -x, -L, --query-gpu CSV, topo -m, "
    "/proc/driver/nvidia/version, nvcc --version, pip list / pip freeze / conda list, torch's prints and "
    "torch.__config__.show(), environment variables, kernel log Xid lines, ldd / ldconfig -p, ds_report, "
    "transformers/accelerate/huggingface-cli/llamafactory-cli env, jax.print_environment_info(), rocminfo, "
    "rocm-smi, amd-smi static, lspci, issue templates' headings and the errors gpucheck knows "
    "(docs/report-formats.md)";

std::optional<Problem> over_limits(const Facts& f, const std::string& where) {
  if (const auto gpus = gpus_listed(f); gpus > kMaxGpusPerNode)
    return Problem{Reason::malformed, where,
                   "lists " + std::to_string(gpus) + " GPUs; a report is one node's, at most " + std::to_string(kMaxGpusPerNode) +
                       " (gpucheck fleet reads many nodes' reports)"};
  if (packages_listed(f) > kMaxPackagesPerEnv)
    return Problem{Reason::malformed, where,
                   "lists more than " + std::to_string(kMaxPackagesPerEnv) + " packages in one Python environment; not one environment's list"};
  return std::nullopt;
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
    case ReportFormat::paste: return "paste";
  }
  return "unknown";
}

namespace {

// The format ImportedReport names for a paste whose one whole report is of this kind.
ReportFormat format_of(std::string_view kind) {
  if (kind == "collect_env") return ReportFormat::torch_collect_env;
  if (kind == "vllm collect_env") return ReportFormat::vllm_collect_env;
  if (kind == "nvidia-smi -q -x") return ReportFormat::nvidia_smi_xml;
  if (kind == "nvidia-smi -q") return ReportFormat::nvidia_smi_query;
  if (kind == "nvidia-smi") return ReportFormat::nvidia_smi_table;
  return ReportFormat::paste;
}

// "a collect_env report", "an nvidia-smi -q report", "the paste".
std::string report_words(const ReportReading& r) {
  if (r.blocks.size() != 1) return "the paste";
  const auto& k = r.blocks.front().kind;
  return (k.front() == 'n' || k.front() == 'a' || k.front() == 'i' || k.front() == 'e' ? "an " : "a ") + k + " report";
}

std::string shortened(std::string_view line) {
  constexpr std::size_t kMax = 160;
  if (line.size() <= kMax) return std::string(line);
  std::size_t cut = kMax;
  while (cut > 0 && (static_cast<unsigned char>(line[cut]) & 0xC0) == 0x80) --cut;  // not inside a UTF-8 sequence
  return std::string(line.substr(0, cut)) + "…";
}

// An `ldd` of a Python package's library (block_ldd.cpp) that resolved a
// GPU library outside site-packages, in a directory the paste's
// LD_LIBRARY_PATH lists: the loader took it via LD_LIBRARY_PATH, ahead of
// the environment's own wheel (ld.so searches LD_LIBRARY_PATH before
// RUNPATH), which is what python.shadowed_libraries reports.
void mark_ld_library_path_shadowing(Facts& facts) {
  const auto env = facts.software.gpu_env.find("LD_LIBRARY_PATH");
  if (env == facts.software.gpu_env.end()) return;
  std::vector<std::string_view> dirs;
  for (auto d : split(env->second, ':')) {
    d = trim(d);
    while (d.size() > 1 && d.back() == '/') d.remove_suffix(1);
    if (!d.empty()) dirs.push_back(d);
  }
  for (auto& py : facts.software.python)
    for (auto& view : py.loader) {
      if (view.owner.empty()) continue;  // not a package's object
      for (auto& need : view.needed) {
        if (!need.path || need.path->find("/site-packages/") != std::string::npos) continue;
        const std::string_view dir = std::string_view(*need.path).substr(0, need.path->rfind('/'));
        if (std::find(dirs.begin(), dirs.end(), dir) == dirs.end()) continue;
        need.via = "LD_LIBRARY_PATH";
        need.shadows_bundled = true;
      }
    }
}

// Any text: its blocks, each read by its reader, merged (docs/report-formats.md).
Result<ImportedReport> import_paste(std::string_view text, const std::string& name, const Deadline& deadline) {
  const PasteText p = paste_lines(text, name);
  if (p.lines.size() > kMaxReportLines)
    return Problem{Reason::malformed, name,
                   "has " + std::to_string(p.lines.size()) + " lines; a report is one node's, at most " + std::to_string(kMaxReportLines) +
                       " lines (docs/robustness.md, Limits)"};
  const auto stopped = [&](std::size_t line) {
    return Problem{Reason::timed_out, name, "reading stopped at line " + std::to_string(line + 1) + " of " + std::to_string(p.lines.size()) +
                                                ": the run's --timeout was reached"};
  };
  const auto split = split_paste(p, deadline);
  if (split.stopped_at) return stopped(*split.stopped_at);
  Facts facts;
  ReportReading reading;
  reading.name = name;
  std::map<std::string, std::string> where;
  std::vector<char> understood(p.lines.size(), 0);
  for (const auto& b : split.blocks) {
    if (deadline.expired()) return stopped(b.first);
    BlockFacts read;
    b.reader->read(p, b.first, b.last, read);
    if (auto too_many = over_limits(read.facts, p.span(b.first, b.last, std::string(b.reader->kind)))) return *too_many;
    const std::string kind = read.kind.value_or(std::string(b.reader->kind));
    if (read.problem) {
      facts.notes.push_back(Note{"report", kind + " at " + p.span(b.first, b.last, kind), *read.problem});
      continue;
    }
    for (auto k = b.first; k <= b.last; ++k) understood[k] = 1;
    for (auto k : read.unread) understood[k] = 0;
    reading.blocks.push_back(ReportBlock{kind, static_cast<int>(b.first + 1), static_cast<int>(b.last + 1), read.note});
    for (auto& st : read.stated) add_statement(reading.stated, st);
    if (!reading.out_of_memory) reading.out_of_memory = read.out_of_memory;
    if (read.peer_rates && reading.peer_rates.size() < kMaxPeerRateMatrices) reading.peer_rates.push_back(std::move(*read.peer_rates));
    if (read.topo && reading.topo.size() < kMaxTopoMatrices) reading.topo.push_back(std::move(*read.topo));
    if (read.nccl_test && reading.nccl_tests.size() < kMaxNcclTestRuns) reading.nccl_tests.push_back(std::move(*read.nccl_test));
    merge_block_facts(facts, where, std::move(read), reading.conflicts, p.span(b.first, b.last, kind));
    if (auto too_many = over_limits(facts, p.span(split.blocks.front().first, b.last, "paste"))) return *too_many;
  }
  read_prose_facts(p, understood, facts, reading);
  for (std::size_t i = 0; i < p.lines.size() && reading.repos.size() < kReportReposKept; ++i)
    for (auto repo : repo_names(p.lines[i]))
      if (reading.repos.size() < kReportReposKept &&
          std::none_of(reading.repos.begin(), reading.repos.end(), [&](const ReportStatement& r) { return r.value == repo; }))
        reading.repos.push_back(ReportStatement{std::string(repo), p.at(i)});
  // Text no reader knows is still a paste: its lines are listed as not
  // understood, and the verdict says what it does not show.
  for (std::size_t i = 0; i < p.lines.size(); ++i) {
    if (understood[i] || is_paste_filler(p.trimmed(i))) continue;
    ++reading.unread_total;
    if (reading.unread.size() < static_cast<std::size_t>(kReportUnreadShown))
      reading.unread.push_back(ReportLine{static_cast<int>(i + 1), shortened(p.trimmed(i))});
  }
  mark_ld_library_path_shadowing(facts);
  // A framework a block named without its version ("torch.version.cuda: 12.1"
  // alone) is no build gpucheck can judge, unless the paste gives the
  // architectures it was compiled for (torch's "supports CUDA capabilities"),
  // or it is ollama, named by its server's log, whose GPU floor holds for
  // every release.
  for (auto& env : facts.software.python) {
    const auto has_archs = [&](const FrameworkBuild& f) {
      return env.deep && std::any_of(env.deep->frameworks.begin(), env.deep->frameworks.end(),
                                     [&](const DeepFramework& d) { return d.name == f.name && !d.arch_list.empty(); });
    };
    env.frameworks.erase(std::remove_if(env.frameworks.begin(), env.frameworks.end(),
                                        [&](const FrameworkBuild& f) { return f.version.empty() && !has_archs(f) && f.name != "ollama"; }),
                         env.frameworks.end());
  }
  for (auto& env : facts.software.python) {
    std::vector<std::string> kinds;
    for (auto& b : reading.blocks)
      if (std::find(kinds.begin(), kinds.end(), b.kind) == kinds.end()) kinds.push_back(b.kind);
    if (env.found_via.empty()) env.found_via = kinds;
  }
  add_report_notes(facts, name, report_words(reading));
  // The paste's one kind of whole report names it, beside lines of other
  // kinds (torch's warning inside a collect_env, which splits it in two
  // blocks); two kinds, or none, are a paste.
  std::optional<ReportFormat> format;
  bool mixed = false;
  for (auto& b : reading.blocks)
    if (const auto f = format_of(b.kind); f != ReportFormat::paste) {
      mixed = mixed || (format && *format != f);
      format = f;
    }
  if (mixed || !format) format = ReportFormat::paste;
  facts.report = std::move(reading);
  return ImportedReport{*format, std::move(facts)};
}

Result<ImportedReport> import_any(std::string_view bytes, std::string_view name_view, const Deadline& deadline) {
  const std::string name(name_view);
  auto decoded = decode_paste(bytes, name);
  if (!decoded) return decoded.problem();
  const std::string_view text = decoded->text;
  if (trim(text).empty()) return unknown(name, "the report is empty");

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
      if (auto too_many = over_limits(*f, name)) return *too_many;
      return ImportedReport{ReportFormat::gpucheck_json, std::move(f.value())};
    }
    if (head.find("\"gpucheck.facts/") != std::string_view::npos) {
      auto f = facts_from_json(text, name);
      if (!f) return f.problem();
      if (auto too_many = over_limits(*f, name)) return *too_many;
      return ImportedReport{ReportFormat::gpucheck_json, std::move(f.value())};
    }
  }
  auto r = import_paste(text, name, deadline);
  if (r && decoded->note) r.value().facts.notes.push_back(Note{"report", "text encoding", Problem{Reason::malformed, name, *decoded->note}});
  return r;
}

}  // namespace

Result<ImportedReport> import_report(std::string_view text, std::string_view name, const Deadline& deadline) {
  auto r = import_any(text, name, deadline);
  if (r) r.value().facts.from_report = true;
  return r;
}

}  // namespace gpucheck
