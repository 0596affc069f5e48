// --format, --json and -o/--output (report_output.hpp).
#include "cli/report_output.hpp"

#include <algorithm>
#include <chrono>
#include <iostream>

#include "cli/app.hpp"
#include "cli/cli_errors.hpp"
#include "cli/cli_values.hpp"
#include "host/own_env.hpp"
#include "report/format_text.hpp"
#include "report/machine_formats.hpp"
#include "util/files.hpp"
#include "util/strings.hpp"

namespace gpucheck {

namespace {

bool known(const std::vector<std::string>& names, const std::string& n) {
  return std::find(names.begin(), names.end(), n) != names.end();
}

// "nfd=/path" names a format; a path that merely holds "=" does not.
std::optional<OutputTarget> named_target(const std::string& value) {
  const auto eq = value.find('=');
  if (eq == std::string::npos || !known(output_format_names(), value.substr(0, eq))) return std::nullopt;
  return OutputTarget{value.substr(0, eq), value.substr(eq + 1)};
}

}  // namespace

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
  f.formats = formats;
  auto* format = cmd->add_option("--format", f.format, format_help)->check(one_of(formats))->type_name("FORMAT");
  cmd->add_flag("--json", f.json, "The same as --format json")->excludes(format);
  cmd->add_option("-o,--output", f.outputs,
                  "Write the document to FILE instead of standard output (- is standard output), atomically (a "
                  "temporary file beside it, then a rename), so that a textfile collector or nfd-worker never reads "
                  "half of it. FORMAT=FILE writes that format there, whatever --format says; repeat it for several "
                  "documents from one run (-o nfd=FILE -o prometheus=FILE). The exit code is unchanged")
      ->type_name("FILE")
      ->allow_extra_args(false)
      ->check(CLI::Validator(
          [formats](std::string& value) -> std::string {
            if (value.empty()) return "expected a file, -, or FORMAT=FILE; got \"\"";
            const auto t = named_target(value);
            if (!t) return {};
            if (!known(formats, t->format))
              return "this command writes " + join(formats, ", ") + "; got \"" + t->format + "\" in \"" + value + "\"";
            if (t->path.empty()) return "expected a file after \"" + t->format + "=\", got \"" + value + "\"";
            return {};
          },
          ""));
  if (known(formats, "nfd"))
    cmd->add_option("--nfd-expiry", f.labels_expire_s,
                    "How long nfd labels hold (# +expiry-time in the file): 1h (the default), 15m, 0 for ever. nfd-worker drops them after that, so a node whose gpucheck stopped running does not keep its "
                    "last verdict; give a few intervals of the runs")
        ->transform(duration_within(0, 7 * 86400))
        ->type_name("DURATION");
}

std::vector<OutputTarget> output_targets(const OutputFlags& f) {
  const std::string format = f.json ? "json" : f.format;
  if (f.outputs.empty()) return {{format, "-"}};
  std::vector<OutputTarget> out;
  for (const auto& o : f.outputs) out.push_back(named_target(o).value_or(OutputTarget{format, o}));
  return out;
}

bool emit_documents(const OutputFlags& f, const GlobalOptions& g, const RenderDocument& render) {
  const auto targets = output_targets(f);
  if (std::count_if(targets.begin(), targets.end(), [](const OutputTarget& t) { return t.path == "-"; }) > 1) {
    error_line() << "--output: standard output given twice; one document can go there, the others to files\n";
    return false;
  }
  bool ok = true;
  for (const auto& t : targets) {
    if (t.path == "-") {
      std::cout << render(t.format, g.use_color());
      continue;
    }
    // A terminal would show the text report with its escapes (cli/safe_output.hpp); so does the file.
    std::string text = render(t.format, false);
    if (t.format == "text") text = safe_text(text);
    if (auto p = write_file_atomically(t.path, text)) {
      error_line() << "--output " << p->where << ": " << p->detail << "\n";
      ok = false;
    }
  }
  return ok;
}

bool emit_report(const OutputFlags& f, const GlobalOptions& g, const RunReport& run, const CommandRenderers& c) {
  RunReport r = run;
  if (f.labels_expire_s > 0) r.labels_expire = r.time + static_cast<std::int64_t>(f.labels_expire_s);
  return emit_documents(f, g, [&](const std::string& format, bool colour) {
    if (format == "text") return c.text(colour);
    if (format == "json") return c.json();
    if (format == "junit") return render_junit(r);
    if (format == "prometheus") return render_prometheus(r);
    if (format == "nfd") return render_nfd(r);
    if (format == "markdown") return render_markdown(r);
    return render_oneline(r);
  });
}

std::int64_t run_time() {
  namespace chr = std::chrono;
  if (const auto given = own_env("GPUCHECK_TODAY"); given && !given->empty())
    if (const auto day = parse_iso_date(*given)) return chr::duration_cast<chr::seconds>(day->time_since_epoch()).count();
  return chr::duration_cast<chr::seconds>(chr::system_clock::now().time_since_epoch()).count();
}

}  // namespace gpucheck
