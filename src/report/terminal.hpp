// The terminal: ANSI colour only when asked for (the CLI decides: a terminal,
// NO_COLOR unset, TERM not "dumb", or --color), and nothing else that moves
// the cursor, clears the screen or retitles the window. Host names, file
// contents and pasted reports reach the text reports as they were read, so
// what leaves for the terminal is made safe in one place.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace gpucheck {

class Style {
 public:
  explicit Style(bool color) : color_(color) {}
  std::string bold(std::string_view s) const { return wrap("1", s); }
  std::string dim(std::string_view s) const { return wrap("2", s); }
  std::string warn(std::string_view s) const { return wrap("33", s); }
  std::string bad(std::string_view s) const { return wrap("31", s); }
  std::string good(std::string_view s) const { return wrap("32", s); }

 private:
  std::string wrap(const char* code, std::string_view s) const;
  bool color_;
};

// Appends `in` to `out` with every control character but newline and tab
// written as a visible escape ("\x1b", "\u009b"), and each byte that is not
// UTF-8 as U+FFFD. With keep_colour, the colour sequences Style writes
// (ESC [ digits m) pass. Returns how many bytes of `in` were used: without
// at_end, a tail that could still become a valid character or colour
// sequence is left for the next call.
std::size_t terminal_safe(std::string_view in, bool keep_colour, bool at_end, std::string& out);

}  // namespace gpucheck
