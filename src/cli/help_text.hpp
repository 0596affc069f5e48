// `gpucheck -h`, `--help` and `gpucheck help COMMAND`: the help of a
// command, rendered from the same definitions as the completions and the
// man page (cli_reference.hpp). Usage first; -h one line an option, --help
// every option in full; wrapped on words to the width, never inside one.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "cli/cli_reference.hpp"

namespace gpucheck {

// What the root's help and the man page show after the options.
struct CliExample {
  std::string command;  // "gpucheck check --json"
  std::string what;     // "findings and the stack, for launchers"
};
const std::vector<CliExample>& cli_examples();
// One paragraph each: the exit codes, and where the documents are.
std::string exit_codes_text();
std::string docs_text();

// The help of the command at `path` below the root ({} for the root,
// {"matrix", "update"}); nullptr-like "" when there is no such command.
std::string render_help(const CliCommand& root, const std::vector<std::string>& path, bool full, std::size_t width);

// COLUMNS when it is a number, else the terminal's width when standard
// output is one, else 80; kept within 40 to 100 so that lines stay readable.
std::size_t help_width();

// `text` wrapped to `width` on spaces, every line after `indent` spaces (the
// first after `first_indent`); a line break in the text is kept.
std::string wrap_words(const std::string& text, std::size_t width, std::size_t indent, std::size_t first_indent);

}  // namespace gpucheck
