// `gpucheck fleet --format oneline|prometheus` (fleet_report.hpp).
#include "fleet/skew_fields.hpp"
#include "report/fleet_report.hpp"
#include "report/machine_formats.hpp"
#include "report/prometheus_text.hpp"
#include "util/strings.hpp"

namespace gpucheck {

namespace {

std::size_t off_majority(const FieldSkew& f) {
  std::size_t n = 0;
  for (const auto& g : f.others) n += g.nodes.size();
  return n;
}

}  // namespace

std::string render_fleet_oneline(const FleetSummary& s) {
  std::vector<std::string> parts{plural(s.reports, "node")};
  if (s.failed > 0) {
    std::string p = std::to_string(s.failed) + " fail";
    if (!s.findings.empty()) p += " (" + s.findings.front().title + ": " + plural(s.findings.front().nodes.size(), "node") + ")";
    parts.push_back(p);
  }
  if (!s.unreadable.empty()) parts.push_back(std::to_string(s.unreadable.size()) + " unreadable");
  for (std::size_t i = 0; i < s.skew.size(); ++i)
    if (s.skew[i].skewed()) parts.push_back(std::string(kSkewFields[i].label) + " differs on " + plural(off_majority(s.skew[i]), "node"));
  return fit_on_words((s.fails() ? "FAIL: " : "PASS: ") + join(parts, "; "), kOnelineMax) + "\n";
}

std::string render_fleet_prometheus(const FleetSummary& s, const std::string& gpucheck_version, std::int64_t time) {
  Family info("gpucheck_fleet_info", "The gpucheck version that summarised the fleet (value 1).");
  info.add({{"version", gpucheck_version}}, 1);
  Family pass("gpucheck_fleet_verdict_pass", "1 when every report was read and no node failed its check (exit code 0), else 0.");
  pass.add({}, s.fails() ? 0 : 1);
  Family reports("gpucheck_fleet_reports", "Reports read, by what they say: pass, fail, probe_only (no verdict), unreadable.");
  reports.add({{"status", "pass"}}, static_cast<std::int64_t>(s.passed));
  reports.add({{"status", "fail"}}, static_cast<std::int64_t>(s.failed));
  reports.add({{"status", "probe_only"}}, static_cast<std::int64_t>(s.probe_only));
  reports.add({{"status", "unreadable"}}, static_cast<std::int64_t>(s.unreadable.size()));
  Family finding("gpucheck_fleet_finding_nodes", "Nodes that report each finding (rule, severity).");
  for (const auto& f : s.findings) finding.add({{"rule", f.rule}, {"severity", f.severity}}, static_cast<std::int64_t>(f.nodes.size()));
  Family skew("gpucheck_fleet_skew_nodes",
              "Nodes whose value of a field (driver, NCCL, ...) stands off the fleet's majority; 0 when all agree.");
  for (std::size_t i = 0; i < s.skew.size(); ++i)
    if (s.skew[i].majority) skew.add({{"field", std::string(kSkewFields[i].key)}}, static_cast<std::int64_t>(off_majority(s.skew[i])));
  Family when("gpucheck_fleet_last_run_timestamp_seconds", "When the fleet was summarised, in seconds since 1970-01-01 UTC.");
  when.add({}, time);
  std::string out;
  for (const Family* f : {&info, &pass, &reports, &finding, &skew, &when}) f->write(out);
  return out;
}

}  // namespace gpucheck
