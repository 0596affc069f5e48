// Untrusted text (host names, file contents, pasted reports) made fit for
// the machine formats: the same visible escapes the terminal gets
// (report/terminal.hpp), so a report written to a file holds the bytes a
// terminal would have shown, and no consumer meets a control character or
// invalid UTF-8.
#pragma once

#include <string>
#include <string_view>

namespace gpucheck {

// Valid UTF-8; control characters but newline and tab as visible escapes.
std::string safe_text(std::string_view s);
// The same on one line: newlines and tabs become spaces.
std::string safe_line(std::string_view s);
// safe_text, less what XML 1.0 forbids even then (U+FFFE, U+FFFF).
std::string xml_text(std::string_view s);

}  // namespace gpucheck
