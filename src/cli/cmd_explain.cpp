// `gpucheck explain "<error message>"`: which known causes of an error hold here.
#include <iostream>

#include "cli/app.hpp"
#include "cli/report_output.hpp"
#include "importers/error_facts.hpp"
#include "report/advice_report.hpp"
#include "rules/fact_view.hpp"
#include "util/json_text.hpp"

namespace gpucheck {

void add_explain_command(CLI::App& app, const GlobalOptions& g, CommandRun& action) {
  auto* cmd = app.add_subcommand(
      "explain",
      "Explain an error message: the rules of the matrix that know it, each with what the message itself means and "
      "the fix, then whether this host (or --root, or --from a user's report) shows the cause, judged on its facts "
      "alone. Exit code 0 whenever it ran.\n"
      "Example: gpucheck explain \"no kernel image is available for execution on the device\"");
  auto message = std::make_shared<std::string>();
  auto output = std::make_shared<OutputFlags>();
  cmd->add_option("message", *message, "The error message, or a distinctive part of it")->required();
  add_output_options(cmd, *output, "Output format: text (for a person, the default); json (gpucheck.explain/1)", {"text", "json"});
  cmd->callback([&g, &action, message, output] {
    action = [&g, message, output] {
      std::string origin;
      auto loaded = load_knowledge_and_facts(g, g.probe_options(), &origin);
      if (!loaded) return kExitUsage;
      // Two questions apart: what the message means, from what it states (a
      // GPU and its compute capability, a driver's CUDA version) alone; and
      // whether the facts at hand show the cause, from those facts alone.
      Facts said;
      said.from_report = true;
      add_message_facts(said, *message);
      const auto& matrix = loaded->knowledge.matrix;
      const auto e = explain(*message, loaded->knowledge.rules, build_subjects(said, matrix), build_subjects(loaded->facts, matrix));
      const auto render = [&](const std::string& format, bool colour) {
        if (format == "text") return render_explanations_text(*message, e, origin, ReportOptions{colour, GPUCHECK_VERSION});
        auto j = explanations_json(*message, e);
        j["source"] = origin;
        return dump_json(j, 2) + "\n";
      };
      return emit_documents(*output, g, render) ? kExitOk : kExitUsage;
    };
  });
}

}  // namespace gpucheck
