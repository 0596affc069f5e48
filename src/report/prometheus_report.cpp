// A node_exporter textfile-collector file (machine_formats.hpp), in the
// Prometheus text exposition format 0.0.4:
// https://prometheus.io/docs/instrumenting/exposition_formats/. No sample
// carries a timestamp (the textfile collector refuses them); the time of
// the run is a gauge of its own. Every series has the `command` label, so
// the files of `check`, `verify` and `kernels` can lie in one directory.
#include "report/machine_formats.hpp"
#include "report/prometheus_text.hpp"
#include "rules/matrix_age.hpp"

namespace gpucheck {


std::string render_prometheus(const RunReport& r) {
  const Labels cmd{{"command", r.command}};
  auto with = [&](Labels more) {
    Labels l = cmd;
    l.insert(l.end(), more.begin(), more.end());
    return l;
  };

  Family info("gpucheck_info", "The gpucheck and matrix versions of the run and what it judged (value 1).");
  Labels info_labels = with({{"version", r.version}, {"source", r.source}});
  if (r.matrix) {
    info_labels.emplace_back("matrix_version", r.matrix->version);
    info_labels.emplace_back("matrix_date", r.matrix->date);
  }
  info.add(info_labels, 1);

  Family pass("gpucheck_verdict_pass",
              "1 when the run passed (exit code 0), 0 when it failed (exit code 1, or 2 for kernels that could not run) or a "
              "report did not show what a verdict needs (3).");
  pass.add(with({{"strict", r.strict ? "true" : "false"}}), r.outcome == Outcome::pass ? 1 : 0);

  Family action("gpucheck_action",
                "What the verdict asks of an operator or scheduler (docs/rules.md, Actions): 1 for the most drastic action "
                "of the failing findings, \"none\" when nothing fails.");
  action.add(with({{"action", std::string(to_string(verdict_action(r.findings, r.strict)))}}), 1);

  Family counts("gpucheck_findings", "Findings of the run, by severity.");
  for (Severity s : {Severity::error, Severity::warning, Severity::info})
    counts.add(with({{"severity", std::string(to_string(s))}}), count(r.findings, s));

  Family findings("gpucheck_finding",
                  "One series per finding: its rule, severity, category, scope and action (docs/rules.md); fails=\"true\" "
                  "when it fails the verdict. The value is how many findings have these labels (1 but for duplicates).");
  for (const auto& f : r.findings)
    findings.add(with({{"rule", f.rule},
                       {"severity", std::string(to_string(f.severity))},
                       {"category", f.category},
                       {"scope", f.scope},
                       {"action", std::string(to_string(f.action))},
                       {"fails", finding_fails(f, r.strict) ? "true" : "false"}}),
                 1);

  Family checks("gpucheck_check",
                "One series per check (a kernel check on a GPU, a bandwidth check, ...) with its status: passed, failed "
                "or skipped. The value is how many checks have these labels (1 but for duplicates).");
  for (const auto& c : r.checks)
    checks.add(with({{"gpu", c.gpu}, {"kind", c.kind}, {"check", c.name}, {"status", std::string(to_string(c.status))}}), 1);

  Family age("gpucheck_matrix_age_seconds",
             "Age of the matrix the run judged by: from its date to the day judged on (GPUCHECK_TODAY, else today in UTC), "
             "in seconds (whole days). Past 90 days `check` says what is newer is not judged.");
  if (r.matrix && r.today)
    if (auto days = matrix_age_days(*r.matrix, *r.today))
      age.add(with({{"matrix_version", r.matrix->version}}), static_cast<std::int64_t>(*days) * 86400);

  Family when("gpucheck_last_run_timestamp_seconds", "When the run was made, in seconds since 1970-01-01 UTC.");
  when.add(cmd, r.time);

  std::string out;
  for (const Family* f : {&info, &pass, &action, &counts, &findings, &checks, &age, &when}) f->write(out);
  return out;
}

}  // namespace gpucheck
