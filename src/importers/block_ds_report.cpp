// DeepSpeed's `ds_report`: its op table ("async_io ..... [NO] ....... [OKAY]")
// and "DeepSpeed general environment info:", whose dotted keys state torch's
// version and CUDA, the nvcc on PATH and DeepSpeed's own version.
#include "importers/block_readers.hpp"
#include "importers/block_util.hpp"
#include "parse/framework_build.hpp"
#include "util/strings.hpp"

namespace gpucheck {

namespace {

bool banner(std::string_view t) {
  return starts_with(t, "DeepSpeed C++/CUDA extension op report") || starts_with(t, "DeepSpeed general environment info");
}

// The banner, or the rule of dashes above it.
Opens opens(const PasteText& p, std::size_t i) {
  const auto t = p.trimmed(i);
  return banner(t) || (starts_with(t, "-----") && banner(p.trimmed(i + 1))) ? Opens::surely : Opens::no;
}

bool continues(const PasteText& p, std::size_t, std::size_t i) {
  const auto t = p.trimmed(i);
  return t.empty() || banner(t) || starts_with(t, "---") || t.find(" ..") != std::string_view::npos || starts_with(t, "[WARNING]") ||
         starts_with(t, "NOTE:") || starts_with(t, "JIT compiled ops") || starts_with(t, "op name") ||
         (p.lines[i].front() == ' ' && !is_prose(t)) ||
         starts_with(t, "meet the required") || starts_with(t, "runtime if needed");
}

// "torch version .................... 2.1.0+cu121" -> {"torch version", "2.1.0+cu121"}
std::optional<KeyText> dotted(std::string_view t) {
  const auto dots = t.find(" ..");
  if (dots == std::string_view::npos) return std::nullopt;
  auto rest = t.substr(dots + 1);
  rest = rest.substr(rest.find_first_not_of('.') == std::string_view::npos ? rest.size() : rest.find_first_not_of('.'));
  return KeyText{trim(t.substr(0, dots)), trim(rest)};
}

void read(const PasteText& p, std::size_t first, std::size_t last, BlockFacts& out) {
  std::vector<std::string> warnings;
  for (std::size_t k = first; k <= last; ++k) {
    const auto t = p.trimmed(k);
    if (starts_with(t, "[WARNING]")) {
      warnings.emplace_back(trim(t.substr(9)));
      continue;
    }
    const auto kv = dotted(t);
    if (!kv) continue;
    PythonEnv& env_for = report_python(out.facts);
    if (kv->key == "torch version" && looks_like_version(kv->value)) {
      auto& fw = report_framework(env_for, "torch");
      const auto parsed = torch_from_version(kv->value, p.at(k));
      fw.version = parsed.version;
      fw.local_tag = parsed.local_tag;
      if (!fw.cuda) fw.cuda = parsed.cuda;
      if (!fw.hip) fw.hip = parsed.hip;
      fw.source = p.at(k);
    } else if ((kv->key == "torch cuda version" || kv->key == "torch hip version") && looks_like_version(kv->value)) {
      auto& fw = report_framework(env_for, "torch");
      (kv->key == "torch cuda version" ? fw.cuda : fw.hip) = std::string(kv->value);
      if (fw.source.empty()) fw.source = p.at(k);
    } else if (kv->key == "nvcc version" && looks_like_version(kv->value)) {
      CudaToolkit tk;
      tk.root = "(from report)";
      tk.kind = "report";
      tk.version = std::string(kv->value);
      tk.version_source = p.at(k);
      tk.nvcc = "nvcc (from report)";
      tk.active = true;
      tk.active_because = {"ds_report's nvcc version (the nvcc DeepSpeed builds with)"};
      out.facts.software.toolkits.push_back(std::move(tk));
    } else if (kv->key == "deepspeed info") {
      const auto v = trim(kv->value.substr(0, kv->value.find(',')));
      if (!looks_like_version(v)) continue;
      FrameworkBuild ds = framework_from_name("deepspeed", v);
      ds.source = p.at(k);
      env_for.frameworks.push_back(std::move(ds));
      add_distribution(out.facts, "deepspeed", v, p.at(k), "pip");
    }
  }
  if (!warnings.empty()) out.note = "warnings: " + join(warnings, "; ");
  // Only the op table: no environment was read.
  auto& py = out.facts.software.python;
  if (!py.empty() && py.front().frameworks.empty() && py.front().distributions.empty() && !py.front().deep) py.clear();
}

}  // namespace

BlockReader ds_report_reader() { return {"ds_report", opens, continues, read}; }

}  // namespace gpucheck
