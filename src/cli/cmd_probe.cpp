// `gpucheck probe`: every fact the probes can read, for a person or as JSON.
#include <iostream>

#include "cli/app.hpp"
#include "cli/report_output.hpp"
#include "report/reports.hpp"

namespace gpucheck {

void add_probe_command(CLI::App& app, const GlobalOptions& g, CommandRun& action) {
  auto* cmd = app.add_subcommand("probe", "Show what this machine has: GPUs, driver, CUDA driver API, nvidia-smi state, services, Xid events. Exit code 0 whenever it ran; unknown facts are listed with their reason.");
  auto output = std::make_shared<OutputFlags>();
  auto list = std::make_shared<bool>(false);
  auto deep = std::make_shared<bool>(false);
  auto pythons = std::make_shared<std::vector<std::string>>();
  add_output_options(cmd, *output, "Output format: text (for a person, the default); json (gpucheck.facts/1: docs/facts-schema.md)",
                     {"text", "json"});
  cmd->add_flag("--list", *list, "List the probes, in the order they run, with what each reads, and exit");
  cmd->add_flag("--deep", *deep,
                 "Also import the frameworks found (torch, TensorFlow, JAX) inside each interpreter, with a deadline, "
                 "and report what they say at run time: CUDA available, devices, cuDNN/NCCL as loaded, TF32");
  add_python_option(cmd, *pythons);
  cmd->callback([&g, &action, output, list, deep, pythons] {
    action = [&g, output, list, deep, pythons] {
      if (*list) {
        for (auto& p : all_probes()) std::cout << p.name << "\n    " << p.reads << "\n";
        return kExitOk;
      }
      ProbeOptions opts = g.probe_options();
      opts.deep = *deep;
      opts.pythons = *pythons;
      const auto facts = acquire_facts(g, opts);
      if (!facts) return kExitUsage;
      const auto render = [&](const std::string& format, bool colour) {
        const ReportOptions o{colour, GPUCHECK_VERSION};
        return format == "json" ? render_facts_json(*facts, o) : render_facts_text(*facts, o);
      };
      return emit_documents(*output, g, render) ? kExitOk : kExitUsage;
    };
  });
}

}  // namespace gpucheck
