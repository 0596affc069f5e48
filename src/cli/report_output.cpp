// --format, --json and --output (report_output.hpp).
#include "cli/report_output.hpp"

#include <chrono>
#include <iostream>

#include "cli/app.hpp"
#include "host/own_env.hpp"
#include "report/format_text.hpp"
#include "report/machine_formats.hpp"
#include "util/files.hpp"

namespace gpucheck {

const std::vector<std::string>& output_format_names() {
  static const std::vector<std::string> names{"text", "json", "junit", "prometheus", "nfd", "markdown", "oneline"};
  return names;
}

void add_output_options(CLI::App* cmd, OutputFlags& f, const std::string& json_doc) {
  add_output_options(cmd, f,
                     "Output format: text (for a person, the default); json (" + json_doc +
                         "); junit (JUnit XML for CI: a test case for the verdict, each finding and each "
                         "check); prometheus (a node_exporter textfile: the verdict and its action, each finding and "
                         "check as a labelled series, the matrix's age); nfd (Node Feature Discovery feature "
                         "labels: status, action, driver branch, CUDA driver version, compute capability, precisions "
                         "proven); markdown (for a ticket); oneline (a launcher's reason: PASS, or FAIL: what, where, "
                         "and the action in brackets, under 200 characters; INCOMPLETE: what a --from paste does not "
                         "show). Formats: docs/output-formats.md",
                     output_format_names());
}

void add_output_options(CLI::App* cmd, OutputFlags& f, const std::string& format_help, const std::vector<std::string>& formats) {
  auto* format = cmd->add_option("--format", f.format, format_help)->check(CLI::IsMember(formats))->type_name("FORMAT");
  cmd->add_flag("--json", f.json, "The same as --format json")->excludes(format);
  cmd->add_option("--output", f.output,
                  "Write the report to FILE instead of standard output, atomically (a temporary file beside it, then a "
                  "rename), so that a textfile collector or nfd-worker never reads half of it; the exit code is unchanged")
      ->type_name("FILE");
}

bool emit_report(const OutputFlags& f, const GlobalOptions& g, const RunReport& r, const CommandRenderers& c) {
  const std::string format = f.json ? "json" : f.format;
  const bool to_file = !f.output.empty();
  std::string text;
  if (format == "text") text = c.text(!to_file && g.use_color());
  else if (format == "json") text = c.json();
  else if (format == "junit") text = render_junit(r);
  else if (format == "prometheus") text = render_prometheus(r);
  else if (format == "nfd") text = render_nfd(r);
  else if (format == "markdown") text = render_markdown(r);
  else text = render_oneline(r);
  return emit_text(f, std::move(text), format == "text");
}

bool emit_text(const OutputFlags& f, std::string text, bool text_format) {
  const bool to_file = !f.output.empty();
  if (!to_file) {
    std::cout << text;
    return true;
  }
  // A terminal would show the text report with its escapes (cli/safe_output.hpp); so does the file.
  if (text_format) text = safe_text(text);
  if (auto p = write_file_atomically(f.output, text)) {
    std::cerr << "gpucheck: --output " << p->where << ": " << p->detail << "\n";
    return false;
  }
  return true;
}

std::int64_t run_time() {
  namespace chr = std::chrono;
  if (const auto given = own_env("GPUCHECK_TODAY"); given && !given->empty())
    if (const auto day = parse_iso_date(*given)) return chr::duration_cast<chr::seconds>(day->time_since_epoch()).count();
  return chr::duration_cast<chr::seconds>(chr::system_clock::now().time_since_epoch()).count();
}

}  // namespace gpucheck
