// The command line as data, read from the CLI11 definitions that also print
// --help, and what is generated from it: shell completions (bash, zsh, fish)
// and the man page. One definition of every option, so they cannot drift.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace gpucheck {

// What a completion offers for an option's value.
enum class ValueKind { none, choice, file, directory };

struct CliOption {
  std::vector<std::string> names;    // "--json", "-h"
  bool takes_value = false;
  ValueKind value_kind = ValueKind::none;  // a number or a duration: nothing to offer
  std::vector<std::string> choices;  // from a one_of check (cli_values.hpp): "auto", "always", "never"
  std::string value_name;            // "DIR", "SECONDS"
  std::string description;
  bool root_only = false;  // means something before any command only: --version, --json
  bool help = false;       // -h, --help: every command's, listed once at the root
};

struct CliArgument {
  std::string name;  // "message", "shell"
  std::string description;
  bool required = false;
};

// What the root's options in the group kRootOnlyGroup have in common: they
// are not listed, or offered, below a command.
inline constexpr const char* kRootOnlyGroup = "Without a command";

struct CliCommand {
  std::string name;  // "gpucheck", "update"
  std::string description;
  std::vector<CliOption> options;      // its own; the root's apply below it too
  std::vector<CliArgument> arguments;  // positional: "path", "bundle"
  std::vector<CliCommand> subcommands; // hidden ones (no group) left out
};

CliCommand describe_cli(const CLI::App& app);

std::string bash_completion(const CliCommand& root);
std::string zsh_completion(const CliCommand& root);
std::string fish_completion(const CliCommand& root);
// troff (man 7 man); `version` and `date` (YYYY-MM-DD, the commit's) go in
// the header; the examples after the commands.
std::string man_page(const CliCommand& root, const std::string& version, const std::string& date);

}  // namespace gpucheck
