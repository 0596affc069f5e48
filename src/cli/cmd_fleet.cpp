// `gpucheck fleet`: what differs across a fleet's collected reports, without
// a lock (src/fleet/, docs/fleet.md). Exit codes: 0 every node passes, 1 a
// node failed or a report could not be read, 2 gpucheck could not run.
#include <iostream>

#include "cli/app.hpp"
#include "cli/cli_errors.hpp"
#include "cli/report_output.hpp"
#include "fleet/fleet_files.hpp"
#include "report/fleet_report.hpp"

namespace gpucheck {

namespace {

struct FleetArgs {
  std::vector<std::string> reports;
  OutputFlags output;
};

int run_fleet(const GlobalOptions& g, const FleetArgs& a) {
  std::vector<std::string> missing;
  const auto files = fleet_report_files(a.reports, missing);
  for (const auto& m : missing) error_line() << "fleet: " << m << ": no such file or directory\n";
  if (!missing.empty()) return kExitUsage;
  if (files.empty()) {
    error_line() << "fleet: no reports: a directory is read for its *.json files\n";
    return kExitUsage;
  }
  const FleetSummary s = summarize_fleet(read_fleet(files, g.deadline()));
  const auto render = [&](const std::string& format, bool) {
    if (format == "json") return render_fleet_json(s, GPUCHECK_VERSION);
    if (format == "markdown") return render_fleet_markdown(s);
    if (format == "oneline") return render_fleet_oneline(s);
    if (format == "prometheus") return render_fleet_prometheus(s, GPUCHECK_VERSION, run_time());
    return render_fleet_text(s);
  };
  if (!emit_documents(a.output, g, render)) return kExitUsage;
  return s.fails() ? kExitFindings : kExitOk;
}

}  // namespace

void add_fleet_command(CLI::App& app, const GlobalOptions& g, CommandRun& action) {
  auto* cmd = app.add_subcommand(
      "fleet",
      "What differs across a fleet, without a lock: reads the `gpucheck check --json` or `gpucheck probe --json` "
      "reports a launcher collected from many nodes (one file per node, named by its file), and prints the nodes "
      "failing each finding and, for the versions that make collective jobs hang or slow (driver, CUDA driver, CUDA "
      "toolkit, cuDNN, NCCL, torch, GPU model and count, VBIOS, PCIe link width, ECC mode), each field's majority "
      "value and the nodes that stand off it. A report that cannot be read is listed, never a stop. Example: "
      "`srun -N64 sh -c 'gpucheck check --json > /shared/run1/$(hostname).json'; gpucheck fleet /shared/run1`. "
      "Exit code 0: every report read and no node failed its check; 1: a node's check failed, or a report could "
      "not be read; 2: gpucheck could not run (no reports, a path that does not exist, an --output it cannot "
      "write). docs/fleet.md");
  auto a = std::make_shared<FleetArgs>();
  cmd->add_option("reports", a->reports, "Report files, or directories whose *.json files are read")
      ->required()
      ->type_name("REPORT_OR_DIR");
  add_output_options(cmd, a->output,
                     "Output format: text (for a person, the default); json (gpucheck.fleet/1: every node named, "
                     "docs/fleet.md); markdown (for a ticket); oneline (PASS or FAIL and what differs, for a "
                     "launcher's log); prometheus (a node_exporter textfile: counts, nodes per finding and per skewed "
                     "field)",
                     {"text", "json", "markdown", "oneline", "prometheus"});
  cmd->callback([&g, &action, a] { action = [&g, a] { return run_fleet(g, *a); }; });
}

}  // namespace gpucheck
