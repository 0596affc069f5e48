// `gpucheck snapshot`: runs every probe through a recorder and writes what
// they read as a directory that `--root` replays (format: docs/snapshot.md).
#include <iostream>

#include "cli/app.hpp"
#include "cli/cli_errors.hpp"
#include "host/hosts.hpp"

namespace gpucheck {

void add_snapshot_command(CLI::App& app, const GlobalOptions& g, CommandRun& action) {
  auto* cmd = app.add_subcommand("snapshot", "Record what the probes read into a new directory: files, command outputs, driver answers. Replay it with `gpucheck --root DIR probe`. It holds the kernel log and host name: review it before you share it.");
  auto out = std::make_shared<std::string>();
  auto description = std::make_shared<std::string>();
  // Not required() by CLI11: --out, the old name, counts too.
  cmd->add_option("-o,--output", *out, "Directory to create (must not exist yet); required")->type_name("DIR");
  cmd->add_option("--out", *out, "The same as --output")->group("");  // its name before --output was every command's
  cmd->add_option("--description", *description, "A line saying what machine this is, stored in the manifest")
      ->type_name("LINE");
  cmd->callback([&g, &action, out, description] {
    action = [&g, out, description] {
      if (out->empty()) {
        error_line() << "`gpucheck snapshot` needs -o DIR, the directory to create\n";
        return kExitUsage;
      }
      if (!g.from.empty()) {
        error_line() << "a snapshot records what the probes read on a host; --from gives a report, not a host\n";
        return kExitUsage;
      }
      auto host = open_root_or_report(g);
      if (!host) return kExitUsage;
      RecordingHost recorder(*host);
      const Facts facts = run_probes(recorder, g.probe_options());
      auto written = recorder.write_snapshot(*out, *description);
      if (!written) {
        error_line() << "snapshot not written: " << written.problem().where << ": " << written.problem().detail << "\n";
        return kExitUsage;
      }
      if (written->leftovers_removed > 0)
        std::cerr << "gpucheck: note: removed " << written->leftovers_removed << " temporary director"
                  << (written->leftovers_removed == 1 ? "y" : "ies") << " that killed snapshot runs left beside it\n";
      std::cout << "Snapshot written to " << written->dir << " (" << facts.notes.size() << " unknown facts recorded with their reasons).\n"
                << "Replay it with: gpucheck --root " << written->dir << " probe\n";
      return kExitOk;
    };
  });
}

}  // namespace gpucheck
