// `gpucheck probe`: every fact the probes can read, for a person or as JSON.
#include <iostream>

#include "cli/app.hpp"
#include "report/reports.hpp"

namespace gpucheck {

void add_probe_command(CLI::App& app, const GlobalOptions& g, Action& action) {
  auto* cmd = app.add_subcommand("probe", "Show what this machine has: GPUs, driver, CUDA driver API, nvidia-smi state, services, Xid events. Exit code 0 whenever it ran; unknown facts are listed with their reason.");
  auto json = std::make_shared<bool>(false);
  auto list = std::make_shared<bool>(false);
  cmd->add_flag("--json", *json, "Print the facts as JSON (schema: docs/facts-schema.md)");
  cmd->add_flag("--list", *list, "List the probes, in the order they run, with what each reads, and exit");
  cmd->callback([&g, &action, json, list] {
    action = [&g, json, list] {
      if (*list) {
        for (auto& p : all_probes()) std::cout << p.name << "\n    " << p.reads << "\n";
        return kExitOk;
      }
      auto host = open_root_or_report(g);
      if (!host) return kExitUsage;
      const Facts facts = run_probes(*host, g.probe_options());
      ReportOptions o{g.use_color() && !*json, GPUCHECK_VERSION};
      std::cout << (*json ? render_facts_json(facts, o) : render_facts_text(facts, o));
      return kExitOk;
    };
  });
}

}  // namespace gpucheck
