// Markdown for a ticket (machine_formats.hpp): what a person pastes into
// an issue. Every untrusted string is escaped for CommonMark, so a host
// name or a pasted report cannot add links, images, HTML or table cells.
#include "report/check_report.hpp"
#include "report/format_text.hpp"
#include "report/machine_formats.hpp"
#include "util/strings.hpp"

namespace gpucheck {

// One table cell or line of prose: ASCII punctuation that means something
// to Markdown backslash-escaped (CommonMark allows it before any of them).
std::string markdown_escape(std::string_view s) {
  std::string out;
  for (char c : safe_line(s)) {
    if (std::string_view("\\`*_[]<>|~&!#").find(c) != std::string_view::npos) out += '\\';
    out += c;
  }
  return out;
}

namespace {

std::string md(std::string_view s) { return markdown_escape(s); }


}  // namespace

std::string render_markdown(const RunReport& r) {
  const int errors = count(r.findings, Severity::error), warnings = count(r.findings, Severity::warning),
            infos = count(r.findings, Severity::info);
  std::string out = "## gpucheck " + r.command + ": " + upper(r.outcome) + "\n\n";
  out += "gpucheck " + md(r.version);
  if (r.matrix) out += ", matrix " + md(r.matrix->version) + " (" + md(r.matrix->date) + ", " + md(r.matrix->origin) + ")";
  out += ", " + md(r.source) + ": " + plural(errors, "error") + ", " + plural(warnings, "warning") + ", " +
         std::to_string(infos) + " info" + (r.strict ? " (--strict: warnings fail)" : "") + ".\n";

  if (!r.findings.empty()) {
    out += "\n### Findings\n\n| severity | finding | where | evidence | fix | action | rule |\n|---|---|---|---|---|---|---|\n";
    for (const auto& f : r.findings) {
      std::string evidence;
      for (const auto& e : f.evidence) evidence += (evidence.empty() ? "" : "; ") + md(e.fact + " = " + e.value);
      out += "| " + std::string(to_string(f.severity)) + " | **" + md(f.title) + "**: " + md(f.message) + " | " + md(f.scope) +
             " | " + evidence + " | " + md(f.fix) + " | " + std::string(to_string(f.action)) + " | " + md(f.rule) + " (" +
             md(f.category) + ") |\n";
    }
  }

  if (!r.checks.empty()) {
    int passed = 0;
    std::string rows;
    for (const auto& c : r.checks) {
      if (c.status == CheckOutcome::Status::passed) {
        ++passed;
        continue;
      }
      rows += "| " + md(c.group) + " | " + md(c.name) + " | " + std::string(to_string(c.status)) + " | " + md(c.detail) + " |\n";
    }
    out += "\n### Checks\n\n" + std::to_string(passed) + " of " + std::to_string(r.checks.size()) + " passed";
    out += rows.empty() ? ".\n" : "; the others:\n\n| where | check | status | detail |\n|---|---|---|---|\n" + rows;
  }

  if (!r.not_shown.empty()) {
    out += "\n### Not in the report (a verdict needs it)\n\n| what | ask for the output of |\n|---|---|\n";
    for (const auto& n : r.not_shown) out += "| " + md(n.what) + " | `" + md(n.ask_for) + "` |\n";
  }

  if (r.facts) {
    out += "\n### Stack\n\n| | |\n|---|---|\n";
    for (const auto& [label, value] : stack_summary(*r.facts)) out += "| " + md(label) + " | " + md(value) + " |\n";
  }
  return out;
}

}  // namespace gpucheck
