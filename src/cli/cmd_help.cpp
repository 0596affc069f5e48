// `gpucheck help [COMMAND...]`: what `gpucheck COMMAND --help` prints, for
// those who type the word first (as git and cargo take it).
#include <iostream>

#include "cli/app.hpp"
#include "cli/cli_errors.hpp"
#include "cli/help_text.hpp"
#include "util/strings.hpp"

namespace gpucheck {

void add_help_command(CLI::App& app, CommandRun& action) {
  auto* cmd = app.add_subcommand("help", "Print the help of gpucheck, or of a command. For instance `gpucheck help matrix update`");
  auto words = std::make_shared<std::vector<std::string>>();
  cmd->add_option("command", *words, "The command, and its subcommand if it has one");
  cmd->callback([&app, &action, words] {
    action = [&app, words] {
      const auto cli = describe_cli(app);
      const CliCommand* at = &cli;
      for (const auto& w : *words) {
        const CliCommand* next = nullptr;
        std::vector<std::string> names;
        for (const auto& s : at->subcommands) {
          names.push_back(s.name);
          if (s.name == w) next = &s;
        }
        if (!next) {
          const auto meant = did_you_mean(w, names);
          error_line() << "help: no command \"" << w << "\""
                       << (meant.empty() ? "; the commands are " + join(names, ", ") : "; did you mean " + meant + "?") << "\n";
          return kExitUsage;
        }
        at = next;
      }
      std::cout << render_help(cli, *words, true, help_width());
      return kExitOk;
    };
  });
}

}  // namespace gpucheck
