// The formats for other programs, one renderer each (one file each:
// <format>_report.cpp), all from the same RunReport
// (docs/output-formats.md says what each holds).
#pragma once

#include <string>
#include <string_view>

#include "report/run_report.hpp"

namespace gpucheck {

// JUnit XML for CI systems: one test case for the verdict, per finding and
// per check. Valid against Jenkins xUnit's junit-10.xsd.
std::string render_junit(const RunReport& r);
// A node_exporter textfile: HELP and TYPE lines, the verdict, one series
// per finding and per check, the matrix's age, the time of the run.
std::string render_prometheus(const RunReport& r);
// Node Feature Discovery feature-file lines (name=value) for nfd-worker's
// local source: status, driver branch and version, CUDA driver version,
// compute capability, precisions the kernel checks proved.
std::string render_nfd(const RunReport& r);
// A ticket's body: a heading with the verdict, a table of findings, the
// checks that did not pass, and the stack.
std::string render_markdown(const RunReport& r);
// One line: "PASS", or "FAIL: " and the title of the failing finding that
// asks for the most, where ("8 GPUs"), how many more, and the verdict's
// action in brackets ("[reset-gpu]"), for Slurm's drain reason or a
// termination message: at most kOnelineMax bytes before the newline, cut
// after a whole word.
inline constexpr std::size_t kOnelineMax = 190;  // so "gpucheck: " in place of "FAIL: " stays under 200
std::string render_oneline(const RunReport& r);
// One Markdown table cell or line of prose from untrusted text: one line,
// CommonMark's punctuation escaped (no links, HTML or extra cells).
std::string markdown_escape(std::string_view s);

}  // namespace gpucheck
