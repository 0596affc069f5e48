// `gpucheck kernels`: run the precision and bandwidth checks on every
// visible GPU (in watched child processes) and print a table per GPU, or the
// facts as JSON. Exit code: 0 every expected check passed, 1 one did not,
// 2 the checks could not run (docs/exit-codes.md).
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/app.hpp"
#include "cli/report_output.hpp"
#include "kernels/run.hpp"
#include "report/kernels_report.hpp"
#include "util/json_text.hpp"

namespace gpucheck {

void add_kernels_command(CLI::App& app, const GlobalOptions& g, CommandRun& action) {
  auto* cmd = app.add_subcommand(
      "kernels",
      "Prove each precision on the GPUs with small kernels. On every visible GPU (CUDA_VISIBLE_DEVICES and MIG "
      "honoured), small PTX kernels per precision: does the "
      "driver's JIT take them, are the results right against a CPU reference, how fast against the datasheet; plus "
      "memory and PCIe bandwidth; then a copy between every pair of GPUs (p2p), every word checked, its rate against "
      "the NVLink or PCIe switch between them. Each GPU runs in a watched child process. Exit code 0 all expected checks passed, "
      "1 one did not, 2 the checks could not run.");
  auto output = std::make_shared<OutputFlags>();
  auto flags = std::make_shared<KernelFlags>();
  add_output_options(cmd, *output, "the results, fields: docs/kernels.md");
  add_kernel_options(cmd, *flags);
  cmd->callback([&g, &action, output, flags] {
    action = [&g, output, flags] {
      if (!live_only(g, "kernel checks run")) return kExitUsage;
      const auto today = judgement_day_or_report();  // the matrix's age, for --format prometheus
      if (!today) return kExitUsage;
      auto loaded = load_knowledge_and_facts(g, g.probe_options());
      if (!loaded) return kExitUsage;
      auto& [knowledge, facts] = *loaded;
      kernels::KernelRequest req = kernels::request_for(facts, &knowledge.matrix);
      apply_kernel_flags(*flags, g, req);
      facts.kernels = run_kernels_with_progress(req);
      const KernelFacts& result = *facts.kernels;
      const int code = kernels::kernels_exit_code(result);
      RunReport run{"kernels", GPUCHECK_VERSION, "this host", &facts, &knowledge.matrix, today, run_time(),
                    false, code != kExitOk ? Outcome::fail : Outcome::pass, {}, kernel_outcomes(result), {}};
      const CommandRenderers renderers{[&](bool) { return render_kernels_text(result); }, [&] {
                                         nlohmann::ordered_json j{{"schema", "gpucheck.kernels/1"}, {"gpucheck_version", GPUCHECK_VERSION}, {"kernels", to_json(result)}};
                                         return dump_json(j, 2) + "\n";
                                       }};
      if (!emit_report(*output, g, run, renderers)) return kExitUsage;
      return code;
    };
  });
}

}  // namespace gpucheck
