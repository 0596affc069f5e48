// The command line as data, read from the CLI11 definitions that also print
// --help, and what is generated from it: shell completions (bash, zsh, fish)
// and the man page. One definition of every option, so they cannot drift.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace gpucheck {

struct CliOption {
  std::vector<std::string> names;    // "--json", "-h"
  bool takes_value = false;
  std::vector<std::string> choices;  // from an IsMember check: "auto", "always", "never"
  std::string value_name;            // "DIR", "SECONDS"
  std::string description;
};

struct CliCommand {
  std::string name;  // "gpucheck", "update"
  std::string description;
  std::vector<CliOption> options;      // its own; the root's apply below it too
  std::vector<std::string> arguments;  // positional: "path", "bundle"
  std::vector<CliCommand> subcommands; // hidden ones (no group) left out
};

CliCommand describe_cli(const CLI::App& app);

std::string bash_completion(const CliCommand& root);
std::string zsh_completion(const CliCommand& root);
std::string fish_completion(const CliCommand& root);
// troff (man 7 man); `version` goes in the header.
std::string man_page(const CliCommand& root, const std::string& version);

}  // namespace gpucheck
