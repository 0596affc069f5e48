// How every command that writes a document prints it: --format, --json
// (the same as --format json) and -o/--output, defined once, and the one
// place that maps a format to its renderer. One run can write several
// documents: `-o nfd=/etc/.../gpucheck -o prometheus=/var/.../gpucheck.prom`.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "report/run_report.hpp"

namespace gpucheck {

struct GlobalOptions;

// text, json, junit, prometheus, nfd, markdown, oneline (docs/output-formats.md).
const std::vector<std::string>& output_format_names();

struct OutputFlags {
  std::string format = "text";
  bool json = false;                 // --json: --format json
  std::vector<std::string> outputs;  // -o/--output, repeatable: FILE, - (standard output), or FORMAT=FILE
  std::vector<std::string> formats;  // what this command writes (set by add_output_options)
  double labels_expire_s = 3600;     // --nfd-expiry: how long nfd labels hold
};

// Adds --format (a name not in the list is a usage error, exit 2), --json
// and -o/--output to `cmd`. `json_doc` says where the command's JSON is documented.
void add_output_options(CLI::App* cmd, OutputFlags& f, const std::string& json_doc);
// The same for a command that writes only some formats (`probe`: text and
// json), with its own --format help.
void add_output_options(CLI::App* cmd, OutputFlags& f, const std::string& format_help, const std::vector<std::string>& formats);

// A document to write: its format, and where ("-": standard output).
struct OutputTarget {
  std::string format, path;
};
// What the flags ask for: --format to standard output when no -o is given.
std::vector<OutputTarget> output_targets(const OutputFlags& f);

// The document in a format, coloured or not (text on a terminal only).
using RenderDocument = std::function<std::string(const std::string& format, bool colour)>;
// Renders and writes each target: standard output, or a file atomically (a
// temporary file beside it, then a rename: a reader sees the old file or the
// new one, never half of one). False, after saying why, when one could not
// be written (exit code 2); the others are still written.
bool emit_documents(const OutputFlags& f, const GlobalOptions& g, const RenderDocument& render);

// Text and JSON are each command's own; the other formats come from the RunReport.
struct CommandRenderers {
  std::function<std::string(bool colour)> text;
  std::function<std::string()> json;
};
bool emit_report(const OutputFlags& f, const GlobalOptions& g, const RunReport& r, const CommandRenderers& c);

// The time of this run, in seconds since 1970 (UTC): midnight of
// GPUCHECK_TODAY when it is set (reproducible reports and tests), else now.
std::int64_t run_time();

}  // namespace gpucheck
