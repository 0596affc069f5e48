// `gpucheck probe`: every fact the probes can read, for a person or as JSON.
#include <iostream>

#include "cli/app.hpp"
#include "report/reports.hpp"

namespace gpucheck {

void add_probe_command(CLI::App& app, const GlobalOptions& g, CommandRun& action) {
  auto* cmd = app.add_subcommand("probe", "Show what this machine has: GPUs, driver, CUDA driver API, nvidia-smi state, services, Xid events. Exit code 0 whenever it ran; unknown facts are listed with their reason.");
  auto json = std::make_shared<bool>(false);
  auto list = std::make_shared<bool>(false);
  auto deep = std::make_shared<bool>(false);
  auto pythons = std::make_shared<std::vector<std::string>>();
  cmd->add_flag("--json", *json, "Print the facts as JSON (schema: docs/facts-schema.md)");
  cmd->add_flag("--list", *list, "List the probes, in the order they run, with what each reads, and exit");
  cmd->add_flag("--deep", *deep,
                 "Also import the frameworks found (torch, TensorFlow, JAX) inside each interpreter, with a deadline, "
                 "and report what they say at run time: CUDA available, devices, cuDNN/NCCL as loaded, TF32");
  add_python_option(cmd, *pythons);
  cmd->callback([&g, &action, json, list, deep, pythons] {
    action = [&g, json, list, deep, pythons] {
      if (*list) {
        for (auto& p : all_probes()) std::cout << p.name << "\n    " << p.reads << "\n";
        return kExitOk;
      }
      ProbeOptions opts = g.probe_options();
      opts.deep = *deep;
      opts.pythons = *pythons;
      const auto facts = acquire_facts(g, opts);
      if (!facts) return kExitUsage;
      ReportOptions o{g.use_color() && !*json, GPUCHECK_VERSION};
      std::cout << (*json ? render_facts_json(*facts, o) : render_facts_text(*facts, o));
      return kExitOk;
    };
  });
}

}  // namespace gpucheck
