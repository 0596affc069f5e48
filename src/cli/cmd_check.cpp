// `gpucheck check` (and a bare `gpucheck`): probe, judge against the
// matrix, report. The exit code is the verdict (docs/exit-codes.md).
#include <iostream>
#include <regex>

#include "cli/app.hpp"
#include "cli/cli_values.hpp"
#include "cli/report_output.hpp"
#include "facts/fact_limits.hpp"
#include "kernels/run.hpp"
#include "report/check_report.hpp"
#include "rules/verdict.hpp"
#include "util/strings.hpp"

namespace gpucheck {

namespace {

struct CheckFlags {
  bool strict = false, deep = false, kernels = false;
  OutputFlags output;  // --format, --json, --output
  KernelFlags kernel;  // --precision, --step-timeout, --duration: how --kernels runs them
  std::vector<std::string> pythons;
  std::vector<std::string> require;
  std::string min_compute, min_memory;
  int gpus = 0;
};

}  // namespace

void add_check_command(CLI::App& app, const GlobalOptions& g, CommandRun& action) {
  auto* cmd = app.add_subcommand(
      "check",
      "Judge this machine against the compatibility matrix: every finding with its evidence, the fix, the action it "
      "asks for and the source, then a summary of the stack. Exit code 0: no error (and no warning under --strict); "
      "on a GPU host, every fact the rules need was read (docs/rules.md, What a verdict rests on); 1: findings that "
      "fail, a fact that could not be read among them; 2: gpucheck could not run; 3: a --from paste that does not show "
      "a GPU, its driver or a framework, and what to ask its reporter for. What a bare `gpucheck` runs.");
  auto f = std::make_shared<CheckFlags>();
  add_output_options(cmd, f->output, "the verdict, findings and facts: docs/check-output.md");
  cmd->add_flag("--strict", f->strict, "Warnings fail too (exit code 1)");
  cmd->add_option("--require", f->require,
                  "Precisions the job needs, comma-separated: " + join(precision_names(), ", ") +
                      ". A GPU whose architecture lacks one is an error; so is a host with no GPU a job can use, as for "
                      "every requirement")
      ->delimiter(',')
      ->check(one_of(precision_names()))
      ->type_name("LIST");
  cmd->add_option("--min-compute", f->min_compute, "Lowest compute capability the job accepts, e.g. 8.0 (A100) or 9.0 (H100)")
      ->check([](const std::string& s) {
        static const std::regex re(R"(^[0-9]+\.[0-9]+$)");
        return std::regex_match(s, re) ? std::string() : "expected a compute capability like 8.0, got \"" + s + "\"";
      })
      ->type_name("X.Y");
  cmd->add_option("--min-memory", f->min_memory,
                  "Least memory per GPU. 80G or 80GB: sold as 80 GB or more (an H100 80GB passes, though it reports "
                  "79.6 GiB); 80GiB: reports at least 80 GiB (2^30 bytes); also M, MB, MiB, T, TB, TiB")
      ->check([](const std::string& s) {
        return parse_memory_size(s) ? std::string() : "expected a size like 80G, 80GB, 79GiB or 40960MiB, got \"" + s + "\"";
      })
      ->type_name("SIZE");
  cmd->add_option("--gpus", f->gpus,
                  "Least number of GPUs a job here can use: those the CUDA driver API lists (after CUDA_VISIBLE_DEVICES "
                  "and the container's GPUs); a count that could not be read is an error")
      ->check(whole_number(1, static_cast<long>(kMaxGpusPerNode)))
      ->type_name("N");
  cmd->add_flag("--deep", f->deep, "Also import the frameworks found (see `gpucheck probe --deep`), so TF32 settings and arch lists are read at run time");
  auto* kernels_flag = cmd->add_flag("--kernels", f->kernels,
                                     "Also run the kernel checks (see `gpucheck kernels`) on the live machine; a precision the "
                                     "GPU should have that fails them is an error, clocks slowed by heat or power under "
                                     "--duration a warning. --precision, --step-timeout, --duration and --portable shape the run as "
                                     "for `gpucheck kernels` and need --kernels");
  // Without --kernels they would silently do nothing: a usage error instead.
  for (CLI::Option* o : add_kernel_options(cmd, f->kernel)) o->needs(kernels_flag);
  add_python_option(cmd, f->pythons);
  cmd->callback([&g, &action, f] {
    action = [&g, f] {
      if (g.level >= 3) f->kernels = true;
      if (f->kernels && !live_only(g, "check --kernels runs the kernel checks")) return kExitUsage;
      const auto today = judgement_day_or_report();
      if (!today) return kExitUsage;
      ProbeOptions opts = g.probe_options();
      opts.deep = f->deep;
      opts.pythons = f->pythons;
      std::string origin;
      auto loaded = load_knowledge_and_facts(g, opts, &origin);
      if (!loaded) return kExitUsage;
      auto& [knowledge, facts] = *loaded;
      if (f->kernels) {
        auto kreq = kernels::request_for(facts, &knowledge.matrix);
        apply_kernel_flags(f->kernel, g, kreq);  // as `gpucheck kernels`
        facts.kernels = run_kernels_with_progress(kreq);
      }
      LaunchRequirements req;
      req.precisions = f->require;
      if (!f->min_compute.empty()) req.min_compute = f->min_compute;
      if (!f->min_memory.empty()) req.min_memory = parse_memory_size(f->min_memory);
      if (f->gpus > 0) req.gpus = f->gpus;
      const Verdict v = judge(facts, knowledge, req, today);
      const Outcome outcome = v.outcome(f->strict);
      CheckReport r{facts, v.findings, knowledge.matrix, f->strict, outcome, origin, v.not_shown};
      RunReport run{"check", GPUCHECK_VERSION, origin, &facts, &knowledge.matrix, today, run_time(), f->strict, outcome, v.findings, {},
                    v.not_shown};
      if (facts.kernels) run.checks = kernel_outcomes(*facts.kernels);
      const CommandRenderers renderers{[&](bool colour) { return render_check_text(r, ReportOptions{colour, GPUCHECK_VERSION}); },
                                       [&] { return render_check_json(r, ReportOptions{false, GPUCHECK_VERSION}); }};
      if (!emit_report(f->output, g, run, renderers)) return kExitUsage;
      return exit_code(outcome);
    };
  });
}

}  // namespace gpucheck
