// `gpucheck completion bash|zsh|fish` and the man page (a hidden
// `gpucheck manpage`, run by the build): generated from the definitions
// that print --help (cli_reference.hpp).
#include <iostream>

#include "cli/app.hpp"
#include "cli/cli_values.hpp"
#include "cli/build_info.hpp"
#include "cli/cli_reference.hpp"

namespace gpucheck {

void add_completion_command(CLI::App& app, CommandRun& action) {
  auto* cmd = app.add_subcommand(
      "completion", "Print shell completion for bash, zsh or fish. For bash: source <(gpucheck completion bash); zsh: "
                    "gpucheck completion zsh > \"${fpath[1]}/_gpucheck\"; fish: gpucheck completion fish > "
                    "~/.config/fish/completions/gpucheck.fish. The .deb installs all three");
  auto shell = std::make_shared<std::string>();
  cmd->add_option("shell", *shell, "The shell")->required()->check(one_of({"bash", "zsh", "fish"}))->type_name("SHELL");
  cmd->callback([&app, &action, shell] {
    action = [&app, shell] {
      const auto cli = describe_cli(app);
      std::cout << (*shell == "bash" ? bash_completion(cli) : *shell == "zsh" ? zsh_completion(cli) : fish_completion(cli));
      return kExitOk;
    };
  });
  auto* man = app.add_subcommand("manpage", "Print the man page (troff)")->group("");
  man->callback([&app, &action] {
    action = [&app] {
      std::cout << man_page(describe_cli(app), GPUCHECK_VERSION, kCommitDate);
      return kExitOk;
    };
  });
}

}  // namespace gpucheck
