// Whole files: read with a size bound and errors that say why, written all
// or nothing so no reader (a launcher, a textfile collector, the next
// gpucheck) ever sees half of one.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "util/deadline.hpp"
#include "util/result.hpp"

namespace gpucheck {

// The file's bytes; absent, permission_denied, a directory, a FIFO or a
// device (never opened: the open would block), or larger than
// max_bytes (a file that should be small and is not) are Problems whose
// where is the path. `what` names the file in the detail ("lockfile").
Result<std::string> read_whole_file(const std::string& path, std::size_t max_bytes, std::string_view what = "file");

// Everything a pipe or terminal (an open descriptor) gives until its end,
// at most max_bytes; a Problem (Reason::timed_out) when no end comes
// before the deadline: a reader of standard input never waits forever.
Result<std::string> read_stream(int fd, std::size_t max_bytes, const Deadline& deadline, std::string_view what = "input");

// Writes `text` to `path` all at once: an unnamed file beside it (O_TMPFILE),
// fsync, then named and renamed into place, so a run killed half-way
// leaves no temporary file (a named one where O_TMPFILE is not offered).
// On failure the previous file is untouched. Returns the problem.
std::optional<Problem> write_file_atomically(const std::string& path, std::string_view text);

}  // namespace gpucheck
