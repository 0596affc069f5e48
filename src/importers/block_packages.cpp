// Package lists: `pip list` / `uv pip list` (a "Package Version" header and
// a rule of dashes), `pip freeze` ("name==version", "name @ url"), and
// `conda list` ("# packages in environment at …", then name, version,
// build, channel). Each package is a Distribution of the paste's Python
// environment; frameworks and NVIDIA's library wheels are read as the
// probe reads them from an installed environment.
#include <cctype>

#include "importers/block_readers.hpp"
#include "importers/block_util.hpp"
#include "importers/collect_env.hpp"
#include "parse/conda_build.hpp"
#include "parse/framework_build.hpp"
#include "util/python_name.hpp"
#include "util/strings.hpp"

namespace gpucheck {

namespace {

std::vector<std::string_view> words(std::string_view t) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < t.size()) {
    while (i < t.size() && (t[i] == ' ' || t[i] == '\t')) ++i;
    const auto start = i;
    while (i < t.size() && t[i] != ' ' && t[i] != '\t') ++i;
    if (i > start) out.push_back(t.substr(start, i - start));
  }
  return out;
}

bool is_name(std::string_view w) {
  if (w.empty() || !std::isalnum(static_cast<unsigned char>(w[0]))) return false;
  for (char c : w)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_' && c != '.') return false;
  return true;
}

bool is_version_word(std::string_view w) { return !w.empty() && std::isdigit(static_cast<unsigned char>(w[0])); }

bool pip_header(std::string_view t) {
  const auto w = words(t);
  return w.size() >= 2 && w[0] == "Package" && w[1] == "Version";
}
bool freeze_line(std::string_view t) {
  const auto eq = t.find("==");
  if (eq != std::string_view::npos) return is_name(trim(t.substr(0, eq))) && is_version_word(trim(t.substr(eq + 2)));
  const auto at = t.find(" @ ");
  return at != std::string_view::npos && is_name(t.substr(0, at));
}
bool conda_header(std::string_view t) { return starts_with(t, "# packages in environment at"); }

enum class Kind { pip_list, freeze, conda };

Kind kind_of(const PasteText& p, std::size_t first) {
  const auto t = p.trimmed(first);
  if (pip_header(t)) return Kind::pip_list;
  if (conda_header(t)) return Kind::conda;
  return Kind::freeze;
}

Opens opens(const PasteText& p, std::size_t i) {
  const auto t = p.trimmed(i);
  if (pip_header(t) && starts_with(p.trimmed(i + 1), "---")) return Opens::surely;
  if (conda_header(t)) return Opens::surely;
  return freeze_line(t) ? Opens::maybe : Opens::no;
}

bool row(std::string_view t, Kind k) {
  if (k == Kind::freeze) return freeze_line(t) || starts_with(t, "-e ");
  if (k == Kind::conda && starts_with(t, "#")) return true;
  if (k == Kind::pip_list && starts_with(t, "---")) return true;
  const auto w = words(t);
  return w.size() >= 2 && is_name(w[0]) && is_version_word(w[1]);
}

bool continues(const PasteText& p, std::size_t first, std::size_t i) { return row(p.trimmed(i), kind_of(p, first)); }

void add_package(BlockFacts& out, std::string_view name, std::string_view version, std::optional<std::string_view> build,
                 const std::string& source, Kind k) {
  add_distribution(out.facts, name, version, source, k == Kind::conda ? "conda" : "pip");
  auto n = normalize_dist_name(std::string(name));
  if (k == Kind::conda && n == "pytorch") n = "torch";
  if (is_framework(n)) {
    FrameworkBuild f = framework_from_name(n, version);
    f.source = source;
    if (k == Kind::conda && build) add_conda_build_facts(f, parse_conda_build(*build));
    add_local_tag_facts(f);
    auto& env = report_python(out.facts);
    bool seen = false;
    for (auto& fw : env.frameworks) seen = seen || fw.name == f.name;
    if (!seen) env.frameworks.push_back(std::move(f));
  }
  if (k != Kind::conda)
    if (auto lib = wheel_library(std::string(name)))
      out.facts.software.libraries.push_back(LibraryInstall{*lib, std::string(version), source, std::nullopt, "pip (from report)"});
}

void read(const PasteText& p, std::size_t first, std::size_t last, BlockFacts& out) {
  const Kind k = kind_of(p, first);
  out.kind = k == Kind::pip_list ? "pip list" : k == Kind::conda ? "conda list" : "pip freeze";
  for (std::size_t i = first; i <= last; ++i) {
    const auto t = p.trimmed(i);
    if (t.empty() || starts_with(t, "#") || starts_with(t, "---") || pip_header(t)) continue;
    if (k == Kind::freeze) {
      const auto eq = t.find("==");
      if (eq != std::string_view::npos) {
        add_package(out, trim(t.substr(0, eq)), first_word(t.substr(eq + 2)), std::nullopt, p.at(i), k);
      } else if (const auto at = t.find(" @ "); at != std::string_view::npos) {
        // "torch @ https://download.pytorch.org/whl/cu121/torch-2.1.0%2Bcu121-…whl": no version stated.
        continue;
      } else {
        out.unread.push_back(i);
      }
      continue;
    }
    const auto w = words(t);
    if (w.size() < 2 || !is_name(w[0])) {
      out.unread.push_back(i);
      continue;
    }
    add_package(out, w[0], w[1], w.size() > 2 ? std::optional<std::string_view>(w[2]) : std::nullopt, p.at(i), k);
  }
}

}  // namespace

BlockReader packages_reader() { return {"packages", opens, continues, read}; }

}  // namespace gpucheck
