// Where a fleet's reports are and reading them: files named on the command
// line, or every *.json in a directory; read and parsed on every core.
#pragma once

#include <string>
#include <vector>

#include "fleet/fleet_summary.hpp"
#include "util/deadline.hpp"

namespace gpucheck {

// A report larger than this is listed as unreadable, unread: a 1,024-GPU
// host's `check --json` is a few MB (docs/fleet.md).
inline constexpr std::size_t kMaxFleetReportBytes = 32u << 20;

// The report files the arguments name, in argument order, a directory's
// *.json sorted by name: every entry so named, so that one that is not a
// regular file (a FIFO, a directory) is listed unreadable, not skipped.
// `missing` gets each argument that does not exist.
std::vector<std::string> fleet_report_files(const std::vector<std::string>& args, std::vector<std::string>& missing);

// Reads every file: a node per file, named by its file name; one that
// cannot be read or parsed, or that the deadline left unread, is an entry
// with its Problem, never a stop.
std::vector<FleetEntry> read_fleet(const std::vector<std::string>& files, const Deadline& deadline);

}  // namespace gpucheck
