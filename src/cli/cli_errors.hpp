// gpucheck's one style for what went wrong on the command line: a single
// line, "gpucheck: error: " and what was expected, with a did-you-mean
// where the word was close to one gpucheck knows.
#pragma once

#include <CLI/CLI.hpp>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace gpucheck {

// Standard error, after "gpucheck: error: "; the caller ends the line.
std::ostream& error_line();
// A word the user typed, as a message quotes it: "chek".
std::string in_quotes(std::string_view s);

// The candidate closest to `word` when it is a likely typo of it (at most a
// third of its letters wrong, at least one allowed); "" when none is.
std::string did_you_mean(std::string_view word, const std::vector<std::string>& candidates);

// The deepest command the parse selected: `app` itself, or `check` in
// `gpucheck check --jsn`.
const CLI::App& selected_command(const CLI::App& app);
// "gpucheck check" for the command selected_command gives.
std::string command_path(const CLI::App& app);

// The message for a parse error of `app` (without "gpucheck: error: "):
// an unknown command or option with the one meant, a missing value, a
// value that is not what the option takes.
std::string parse_error_text(const CLI::App& app, const CLI::ParseError& e);

}  // namespace gpucheck
