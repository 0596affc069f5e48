// `gpucheck recommend`: the NGC container tags this driver and these GPUs run.
#include <iostream>

#include "cli/app.hpp"
#include "cli/report_output.hpp"
#include "report/advice_report.hpp"
#include "report/matrix_json.hpp"
#include "util/json_text.hpp"

namespace gpucheck {

void add_recommend_command(CLI::App& app, const GlobalOptions& g, CommandRun& action) {
  auto* cmd = app.add_subcommand(
      "recommend",
      "Name the NGC containers this driver and GPUs run. The newest PyTorch, TensorFlow and JAX containers "
      "that run natively, those that need forward compatibility (data-center GPUs only), and why newer ones do not "
      "fit. Exit code 0 whenever it ran.");
  auto output = std::make_shared<OutputFlags>();
  add_output_options(cmd, *output, "Output format: text (for a person, the default); json (gpucheck.recommend/1)", {"text", "json"});
  cmd->callback([&g, &action, output] {
    action = [&g, output] {
      std::string origin;
      auto loaded = load_knowledge_and_facts(g, g.probe_options(), &origin);
      if (!loaded) return kExitUsage;
      const Matrix& matrix = loaded->knowledge.matrix;
      const auto rec = recommend_ngc(loaded->facts, matrix);
      const auto render = [&](const std::string& format, bool colour) {
        if (format == "text") return render_recommendations_text(rec, ReportOptions{colour, GPUCHECK_VERSION});
        nlohmann::ordered_json j;
        j["schema"] = "gpucheck.recommend/1";
        j["gpucheck_version"] = GPUCHECK_VERSION;
        j["matrix"] = matrix_json(matrix);
        j["source"] = origin;
        j["recommendations"] = recommendations_json(rec);
        return dump_json(j, 2) + "\n";
      };
      return emit_documents(*output, g, render) ? kExitOk : kExitUsage;
    };
  });
}

}  // namespace gpucheck
