#include "importers/block_util.hpp"

#include <array>
#include <cctype>

#include "parse/local_tag.hpp"
#include "facts/fact_limits.hpp"
#include "util/strings.hpp"

namespace gpucheck {

std::string_view strip_bullet(std::string_view line) {
  auto t = trim(line);
  if (t.size() >= 2 && (t[0] == '-' || t[0] == '*' || t[0] == '+') && t[1] == ' ') t = trim(t.substr(2));
  return t;
}

std::string key_name(std::string_view key) {
  std::string out;
  out.reserve(key.size());
  for (char c : key) {
    if (c == '`' || c == '*') continue;  // not '_': torch.__version__ keeps its underscores
    out.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  }
  return std::string(trim(out));
}

std::optional<KeyText> key_text(std::string_view line, char sep) {
  auto t = strip_bullet(line);
  const auto at = t.find(sep);
  if (at == std::string_view::npos || at == 0) return std::nullopt;
  auto key = trim(t.substr(0, at));
  auto value = trim(t.substr(at + 1));
  // "**Driver version:** 535": the emphasis closes after the separator.
  while (!value.empty() && value.front() == '*') value.remove_prefix(1);
  while (!key.empty() && (key.front() == '*' || key.back() == '*')) key = trim(key.substr(key.front() == '*' ? 1 : 0, key.size() - 1));
  value = trim(value);
  // A JSON member: "torch": "2.4.1+cu124",
  if (key.size() >= 2 && key.front() == '"' && key.back() == '"') {
    key = key.substr(1, key.size() - 2);
    if (!value.empty() && value.back() == ',') value.remove_suffix(1);
    if (value.size() >= 2 && value.front() == '"' && value.back() == '"') value = value.substr(1, value.size() - 2);
  }
  if (key.empty()) return std::nullopt;
  return KeyText{key, value};
}

bool is_no_value(std::string_view v) {
  static constexpr std::array kNone{"", "N/A", "NA", "n/a", "None", "none", "Not Found", "Not found", "not found",
                                    "Could not collect", "No CUDA", "Not Available", "Unknown", "unknown",
                                    "not installed", "Not installed", "-", "[N/A]", "Not Supported", "<fill in>"};
  for (auto n : kNone)
    if (v == n) return true;
  return false;
}

bool looks_like_version(std::string_view v) {
  if (v.empty() || !std::isdigit(static_cast<unsigned char>(v[0])) || v.find('.') == std::string_view::npos) return false;
  for (char c : v)
    if (std::isspace(static_cast<unsigned char>(c))) return false;
  return true;
}

std::optional<ListedGpu> listed_gpu(std::string_view t) {
  if (!starts_with(t, "GPU ")) return std::nullopt;
  const auto colon = t.find(':');
  const auto open = t.rfind(" (UUID: ");
  if (colon == std::string_view::npos || open == std::string_view::npos || open < colon || t.back() != ')') return std::nullopt;
  const auto index = parse_int_in(t.substr(4, colon - 4), 0, 4096);
  if (!index) return std::nullopt;
  return ListedGpu{*index, trim(t.substr(colon + 1, open - colon - 1)), t.substr(open + 8, t.size() - open - 9)};
}

SmiGpu smi_gpu(const ListedGpu& g) {
  SmiGpu gpu;
  gpu.pci_bus_id = report_gpu_key(g.index);
  gpu.product_name = std::string(g.name);
  gpu.uuid = std::string(g.uuid);
  return gpu;
}

std::string report_gpu_key(long long index) {
  std::string key = "report:GPU";
  key += std::to_string(index);
  return key;
}

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

std::vector<std::string_view> words_of(std::string_view s) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
    const std::size_t start = i;
    while (i < s.size() && s[i] != ' ' && s[i] != '\t') ++i;
    if (i > start) out.push_back(s.substr(start, i - start));
  }
  return out;
}

std::string_view first_word(std::string_view s) {
  s = trim(s);
  const auto sp = s.find_first_of(" \t");
  return s.substr(0, sp);
}

bool is_prose(std::string_view t) {
  if (t.empty()) return false;
  const char last = t.back();
  if (last != '.' && last != '?' && last != '!') return false;
  int spaces = 0;
  for (char c : t) spaces += c == ' ';
  return spaces >= 4;
}

FrameworkBuild torch_from_version(std::string_view version, const std::string& source) {
  FrameworkBuild f;
  f.name = "torch";
  f.version = std::string(version);
  f.source = source;
  if (const auto plus = version.find('+'); plus != std::string_view::npos) {
    f.local_tag = std::string(version.substr(plus + 1));
    f.cuda = cuda_from_local_tag(*f.local_tag);
    f.hip = hip_from_local_tag(*f.local_tag);
    f.cpu_only = *f.local_tag == "cpu";
  }
  return f;
}

PythonEnv& report_python(Facts& f) {
  if (f.software.python.empty()) {
    PythonEnv e;
    e.interpreter = "(from report)";
    e.kind = "report";
    e.sys_path_source = "not in the report";
    f.software.python.push_back(std::move(e));
  }
  return f.software.python.front();
}

FrameworkBuild& report_framework(PythonEnv& env, std::string_view name) {
  for (auto& fw : env.frameworks)
    if (fw.name == name) return fw;
  FrameworkBuild fw;
  fw.name = std::string(name);
  env.frameworks.push_back(std::move(fw));
  return env.frameworks.back();
}

DeepFramework& report_deep(PythonEnv& env, std::string_view name) {
  if (!env.deep) env.deep = DeepProbeFacts{};
  for (auto& d : env.deep->frameworks)
    if (d.name == name) return d;
  DeepFramework d;
  d.name = std::string(name);
  env.deep->frameworks.push_back(std::move(d));
  return env.deep->frameworks.back();
}

void add_distribution(Facts& f, std::string_view name, std::string_view version, const std::string& source,
                      std::string_view installer) {
  Distribution d;
  d.name = std::string(name);
  d.version = std::string(version);
  d.source = source;
  d.installer = std::string(installer);
  auto& env = report_python(f);
  if (env.distributions.size() <= kMaxPackagesPerEnv) env.distributions.push_back(std::move(d));
}

}  // namespace gpucheck
