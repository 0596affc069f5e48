#include "report/fleet_report.hpp"

#include <nlohmann/json.hpp>

#include "report/format_text.hpp"
#include "report/machine_formats.hpp"
#include "util/json_text.hpp"
#include "util/strings.hpp"

namespace gpucheck {

namespace {

// Text and Markdown name at most this many nodes a line; JSON names all.
constexpr std::size_t kNodesShown = 50;


template <class Escape>
std::string node_list(const std::vector<std::string>& nodes, std::string_view sep, Escape escape) {
  std::string out;
  for (std::size_t i = 0; i < nodes.size() && i < kNodesShown; ++i) {
    if (i) out += sep;
    out += escape(nodes[i]);
  }
  if (nodes.size() > kNodesShown) out += " … and " + std::to_string(nodes.size() - kNodesShown) + " more (--format json lists all)";
  return out;
}

std::string counts_line(const FleetSummary& s) {
  std::string out = plural(s.reports, "report") + ": " + std::to_string(s.passed) + " pass, " + std::to_string(s.failed) + " fail";
  if (s.probe_only) out += ", " + std::to_string(s.probe_only) + " probe only (no verdict)";
  if (!s.unreadable.empty()) out += ", " + std::to_string(s.unreadable.size()) + " unreadable";
  return out;
}

std::size_t known(const FieldSkew& f) {
  std::size_t n = f.majority ? f.majority->nodes.size() : 0;
  for (const auto& g : f.others) n += g.nodes.size();
  return n;
}

std::string_view label(SkewField f) { return kSkewFields[index_of(f)].label; }
std::string_view key(SkewField f) { return kSkewFields[index_of(f)].key; }

std::string plain(const std::string& s) { return safe_line(s); }

}  // namespace

std::string render_fleet_text(const FleetSummary& s) {
  std::string out = "fleet: " + counts_line(s) + (s.fails() ? ": FAIL\n" : ": pass\n");
  if (!s.findings.empty()) {
    out += "\nFindings (nodes failing each)\n";
    for (const auto& f : s.findings) {
      out += "  " + f.severity + (f.severity == "error" ? "    [" : "  [") + plain(f.rule) + "] " + plain(f.title) + ": " +
             plural(f.nodes.size(), "node") + "\n";
      out += "           " + node_list(f.nodes, " ", plain) + "\n";
    }
  }
  out += "\nSkew (each field's majority value, and the nodes off it)\n";
  for (const auto& f : s.skew) {
    std::string head = "  " + std::string(label(f.field));
    head.resize(20, ' ');
    const std::size_t n = known(f);
    if (!f.majority) {
      out += head + "unknown on every node\n";
      continue;
    }
    out += head + plain(f.majority->value);
    if (f.skewed()) out += " on " + std::to_string(f.majority->nodes.size()) + " of " + plural(n, "node");
    else if (f.unknown.empty()) out += n == 1 ? " on the one node" : " on all " + std::to_string(n) + " nodes";
    else out += n == 1 ? " on the one node that shows it" : " on all " + std::to_string(n) + " nodes that show it";
    out += std::string(f.tie ? " (a tie: no majority)" : "") + "\n";
    for (const auto& g : f.others)
      out += std::string(20, ' ') + plain(g.value) + " on " + std::to_string(g.nodes.size()) + ": " + node_list(g.nodes, " ", plain) + "\n";
    if (!f.unknown.empty())
      out += std::string(20, ' ') + "unknown on " + std::to_string(f.unknown.size()) + ": " + node_list(f.unknown, " ", plain) + "\n";
  }
  if (!s.unreadable.empty()) {
    out += "\nUnreadable reports (each counts as a failing node)\n";
    for (const auto& u : s.unreadable) out += "  " + plain(u.node) + ": " + plain(u.reason) + "\n";
  }
  return out;
}

std::string render_fleet_json(const FleetSummary& s, const std::string& gpucheck_version) {
  using J = nlohmann::ordered_json;
  J j{{"schema", "gpucheck.fleet/1"},
      {"gpucheck_version", gpucheck_version},
      {"verdict", s.fails() ? "fail" : "pass"},
      {"counts",
       {{"reports", s.reports}, {"pass", s.passed}, {"fail", s.failed}, {"probe_only", s.probe_only}, {"unreadable", s.unreadable.size()}}},
      {"failing_nodes", s.failing_nodes},
      {"findings", J::array()},
      {"skew", J::array()},
      {"unreadable", J::array()}};
  for (const auto& f : s.findings)
    j["findings"].push_back({{"rule", f.rule}, {"title", f.title}, {"severity", f.severity}, {"nodes", f.nodes}});
  for (const auto& f : s.skew) {
    J field{{"field", key(f.field)}, {"skewed", f.skewed()}, {"known_nodes", known(f)}, {"majority", nullptr}, {"tie", f.tie},
            {"others", J::array()}, {"unknown", f.unknown}};
    if (f.majority) field["majority"] = {{"value", f.majority->value}, {"nodes", f.majority->nodes.size()}};
    for (const auto& g : f.others) field["others"].push_back({{"value", g.value}, {"nodes", g.nodes}});
    j["skew"].push_back(std::move(field));
  }
  for (const auto& u : s.unreadable) j["unreadable"].push_back({{"report", u.node}, {"reason", u.reason}});
  return dump_json(j, 2) + "\n";
}

std::string render_fleet_markdown(const FleetSummary& s) {
  const auto md = [](const std::string& x) { return markdown_escape(x); };
  std::string out = "# gpucheck fleet: " + std::string(s.fails() ? "FAIL" : "pass") + "\n\n" + md(counts_line(s)) + ".\n";
  if (!s.findings.empty()) {
    out += "\n## Findings\n\n| severity | rule | title | nodes |\n|---|---|---|---|\n";
    for (const auto& f : s.findings)
      out += "| " + f.severity + " | " + md(f.rule) + " | " + md(f.title) + " | " + std::to_string(f.nodes.size()) + ": " +
             node_list(f.nodes, ", ", md) + " |\n";
  }
  out += "\n## Skew\n\n| field | majority | nodes off it |\n|---|---|---|\n";
  for (const auto& f : s.skew) {
    out += "| " + std::string(label(f.field)) + " | ";
    if (!f.majority) {
      out += "unknown on every node | |\n";
      continue;
    }
    out += md(f.majority->value) + " (" + std::to_string(f.majority->nodes.size()) + " of " + std::to_string(known(f)) +
           (f.tie ? ", a tie" : "") + ") | ";
    std::vector<std::string> off;
    for (const auto& g : f.others) off.push_back(md(g.value) + " on " + std::to_string(g.nodes.size()) + ": " + node_list(g.nodes, ", ", md));
    if (!f.unknown.empty()) off.push_back("unknown on " + std::to_string(f.unknown.size()) + ": " + node_list(f.unknown, ", ", md));
    out += (off.empty() ? "none" : join(off, "; ")) + " |\n";
  }
  if (!s.unreadable.empty()) {
    out += "\n## Unreadable reports\n\n| report | reason |\n|---|---|\n";
    for (const auto& u : s.unreadable) out += "| " + md(u.node) + " | " + md(u.reason) + " |\n";
  }
  return out;
}

}  // namespace gpucheck
