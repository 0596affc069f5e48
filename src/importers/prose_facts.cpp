// What a paste's prose names: a GPU ("I am using an RTX 3090", "failing on
// e.g. A100 GPUs", "NVIDIA : A100 (80G)"), ROCm's and ollama's releases.
// Read only where no block of the paste shows them, so that a table's
// exact value always wins and two readings never conflict. A GPU's name is
// kept as written; the rules judge it by the matrix's models of that name
// (rules/fact_view_gpu.cpp).
#include "importers/prose_facts.hpp"

#include <algorithm>
#include <array>
#include <cctype>

#include "importers/block_util.hpp"
#include "importers/stated_kinds.hpp"
#include "util/strings.hpp"

namespace gpucheck {

namespace {

// Data-centre and workstation GPUs named by their bare model number.
constexpr std::array<std::string_view, 26> kModels{"a100", "a800", "a10g", "a10",  "a16",  "a30",  "a40", "a6000", "h100",
                                                   "h200", "h800", "h20",  "gh200", "gb200", "b200", "b300", "v100", "p100",
                                                   "p40",  "k80",  "k40",  "t4",   "l4",   "l40s", "l40",  "t1000"};

bool word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; }

// "rtx 5060 ti", "gtx 950m", "rtx5090": the series, its number, a suffix.
std::optional<std::string> geforce_name(const std::string& low) {
  for (std::string_view series : {"rtx", "gtx"}) {
    for (auto at = low.find(series); at != std::string::npos; at = low.find(series, at + 1)) {
      if (at > 0 && word_char(low[at - 1])) continue;
      auto i = at + 3;
      if (i < low.size() && low[i] == ' ') ++i;
      const auto digits = i;
      while (i < low.size() && std::isdigit(static_cast<unsigned char>(low[i]))) ++i;
      if (i - digits < 3 || i - digits > 4) continue;
      std::string name = (series == "rtx" ? "RTX " : "GTX ") + low.substr(digits, i - digits);
      // a suffix is a whole word, or glued to the number: "3090ti", not "3090 time"
      const auto suffix = [&](std::string_view w) {
        const auto end = i + w.size();
        return low.compare(i, w.size(), w) == 0 && (end == low.size() || !word_char(low[end]));
      };
      if (suffix("m")) name += "M";
      else if (suffix(" ti") || suffix("ti")) name += " Ti";
      else if (suffix(" super") || suffix("super")) name += " SUPER";
      else if (i < low.size() && word_char(low[i])) continue;
      return name;
    }
  }
  return std::nullopt;
}

// A bare model number counts beside a word that makes it a GPU.
std::optional<std::string> model_name(const std::string& low) {
  const bool gpu_context = low.find("nvidia") != std::string::npos || low.find("tesla") != std::string::npos ||
                           low.find("gpu") != std::string::npos;
  if (!gpu_context) return std::nullopt;
  for (auto m : kModels)
    for (auto at = low.find(m); at != std::string::npos; at = low.find(m, at + 1)) {
      const auto end = at + m.size();
      if ((at > 0 && word_char(low[at - 1])) || (end < low.size() && word_char(low[end]))) continue;
      std::string name(m);
      for (auto& c : name) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      return name;
    }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> gpu_named_in_prose(std::string_view line) {
  if (line.size() > 2000) return std::nullopt;  // a line of prose, not a dump
  const std::string low = to_lower(line);
  if (auto g = geforce_name(low)) return g;
  return model_name(low);
}

std::optional<std::string> ollama_version_in_prose(std::string_view line) {
  if (line.size() > 2000) return std::nullopt;
  const std::string low = to_lower(line);
  const auto at = low.find("ollama");
  if (at == std::string::npos) return std::nullopt;
  // the first version within a few words after the name: "ollama v0.1.19", "ollama to v0.1.19", "Ollama version 0.5.4"
  std::size_t words = 0;
  for (auto w : split(std::string_view(line).substr(at + 6), ' ')) {
    if (w.empty()) continue;
    if (++words > 4) break;
    if (!w.empty() && (w.front() == 'v' || w.front() == 'V')) w.remove_prefix(1);
    while (!w.empty() && (w.back() == ',' || w.back() == '.' || w.back() == ')')) w.remove_suffix(1);
    if (w.find('.') != std::string_view::npos && looks_like_version(w)) return std::string(w);
  }
  return std::nullopt;
}

std::optional<std::string> rocm_version_in_prose(std::string_view line) {
  if (line.size() > 2000) return std::nullopt;
  const std::string low = to_lower(line);
  for (auto at = low.find("rocm"); at != std::string::npos; at = low.find("rocm", at + 1)) {
    // "ROCm 6.0.2", "rocm-6.0.2"; not a wheel's "+rocm6.0" (the build's, not the install's)
    if (at > 0 && (word_char(low[at - 1]) || low[at - 1] == '+' || low[at - 1] == '/' || low[at - 1] == '.')) continue;
    if (at + 5 >= low.size() || (low[at + 4] != ' ' && low[at + 4] != '-')) continue;
    auto w = first_word(std::string_view(line).substr(at + 5));
    while (!w.empty() && (w.back() == ',' || w.back() == '.' || w.back() == ')' || w.back() == '`')) w.remove_suffix(1);
    if (w.find('.') != std::string_view::npos && looks_like_version(w)) return std::string(w);
  }
  return std::nullopt;
}

void read_prose_facts(const PasteText& p, std::vector<char>& understood, Facts& facts, ReportReading& reading) {
  // No block showed a GPU: one named in the prose is the paste's GPU.
  const bool shows_gpu = (facts.nvidia_smi && !facts.nvidia_smi->gpus.empty()) || (facts.cuda && !facts.cuda->devices.empty()) ||
                         !facts.software.rocm.gpu_nodes.empty() ||
                         std::any_of(facts.pci.begin(), facts.pci.end(), [](const PciDevice& d) { return d.kind == PciKind::gpu; });
  for (std::size_t i = 0; i < p.lines.size() && !shows_gpu; ++i) {
    if (understood[i]) continue;
    const auto named = gpu_named_in_prose(p.trimmed(i));
    if (!named) continue;
    CudaDevice d;
    d.ordinal = 0;
    d.pci_bus_id = "report:GPU0";
    d.name = *named;
    if (!facts.cuda) facts.cuda = CudaDriverApiFacts{};
    facts.cuda->devices.push_back(std::move(d));
    understood[i] = 1;
    reading.blocks.push_back(ReportBlock{"GPU named in prose", static_cast<int>(i + 1), static_cast<int>(i + 1), {}});
    break;
  }
  // ... nor an AMD GPU: the target a ROCm library refused names the one in use.
  for (std::size_t i = 0; i < p.lines.size() && !shows_gpu && facts.software.rocm.gpu_nodes.empty(); ++i) {
    const auto gfx = gfx_target_refused(p.trimmed(i));
    if (!gfx || gfx->empty()) continue;
    KfdNode n;
    n.gfx_target = std::string(*gfx);
    n.source = p.at(i);
    facts.software.rocm.gpu_nodes.push_back(std::move(n));
  }
  // No block named the ROCm release: one the prose names is.
  for (std::size_t i = 0; i < p.lines.size() && facts.software.rocm.installs.empty(); ++i) {
    if (understood[i]) continue;
    if (const auto version = rocm_version_in_prose(p.trimmed(i))) {
      facts.software.rocm.installs.push_back(RocmInstall{"(from report)", *version, p.at(i), true});
      understood[i] = 1;
      reading.blocks.push_back(ReportBlock{"ROCm named in prose", static_cast<int>(i + 1), static_cast<int>(i + 1), {}});
    }
  }
  // No block named ollama's release: the first one the prose names is.
  bool has_ollama = false;
  for (auto& e : facts.software.python)
    for (auto& f : e.frameworks) has_ollama = has_ollama || (f.name == "ollama" && !f.version.empty());
  for (std::size_t i = 0; i < p.lines.size() && !has_ollama; ++i) {
    if (understood[i]) continue;
    const auto version = ollama_version_in_prose(p.trimmed(i));
    if (!version) continue;
    auto& fw = report_framework(report_python(facts), "ollama");
    fw.version = *version;
    fw.source = p.at(i);
    understood[i] = 1;
    reading.blocks.push_back(ReportBlock{"ollama named in prose", static_cast<int>(i + 1), static_cast<int>(i + 1), {}});
    has_ollama = true;
  }
}

}  // namespace gpucheck
