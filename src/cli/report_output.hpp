// How `check`, `verify` and `kernels` print their result: --format,
// --json (the same as --format json) and --output FILE, defined once for
// the three, and the one place that maps a format to its renderer.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "report/run_report.hpp"

namespace gpucheck {

struct GlobalOptions;

// text, json, junit, prometheus, nfd, markdown, oneline (docs/output-formats.md).
const std::vector<std::string>& output_format_names();

struct OutputFlags {
  std::string format = "text";
  bool json = false;    // --json: --format json
  std::string output;   // --output FILE; empty: standard output
};

// Adds --format (a name not in the list is a usage error, exit 2), --json
// and --output to `cmd`. `json_doc` says where the command's JSON is documented.
void add_output_options(CLI::App* cmd, OutputFlags& f, const std::string& json_doc);
// The same for a command that writes only some formats (`fleet`: text, json,
// markdown), with its own --format help.
void add_output_options(CLI::App* cmd, OutputFlags& f, const std::string& format_help, const std::vector<std::string>& formats);

// Text and JSON are each command's own; the other formats come from the RunReport.
struct CommandRenderers {
  std::function<std::string(bool colour)> text;
  std::function<std::string()> json;
};

// Renders `r` in the chosen format to standard output, or to --output
// (a temporary file beside it, then a rename: a reader sees the old file or
// the new one, never half of one). False, after saying why, when the file
// could not be written (exit code 2).
bool emit_report(const OutputFlags& f, const GlobalOptions& g, const RunReport& r, const CommandRenderers& c);
// Writes a report already rendered the same way: standard output, or --output
// atomically (a text report made safe as a terminal would show it).
bool emit_text(const OutputFlags& f, std::string text, bool text_format);

// The time of this run, in seconds since 1970 (UTC): midnight of
// GPUCHECK_TODAY when it is set (reproducible reports and tests), else now.
std::int64_t run_time();

}  // namespace gpucheck
