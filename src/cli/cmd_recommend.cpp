// `gpucheck recommend`: the NGC container tags this driver and these GPUs run.
#include <iostream>

#include "cli/app.hpp"
#include "report/advice_report.hpp"
#include "report/matrix_json.hpp"
#include "util/json_text.hpp"

namespace gpucheck {

void add_recommend_command(CLI::App& app, const GlobalOptions& g, CommandRun& action) {
  auto* cmd = app.add_subcommand(
      "recommend",
      "Name the newest NGC PyTorch, TensorFlow and JAX containers this driver and these GPUs run natively, those that "
      "need forward compatibility (data-center GPUs only), and why newer ones do not fit. Exit code 0 whenever it ran.");
  auto json = std::make_shared<bool>(false);
  cmd->add_flag("--json", *json, "Print the recommendations as JSON");
  cmd->callback([&g, &action, json] {
    action = [&g, json] {
      std::string origin;
      auto loaded = load_knowledge_and_facts(g, g.probe_options(), &origin);
      if (!loaded) return kExitUsage;
      const Matrix& matrix = loaded->knowledge.matrix;
      const auto rec = recommend_ngc(loaded->facts, matrix);
      if (*json) {
        nlohmann::ordered_json j;
        j["schema"] = "gpucheck.recommend/1";
        j["gpucheck_version"] = GPUCHECK_VERSION;
        j["matrix"] = matrix_json(matrix);
        j["source"] = origin;
        j["recommendations"] = recommendations_json(rec);
        std::cout << dump_json(j, 2) << "\n";
      } else {
        std::cout << render_recommendations_text(rec, ReportOptions{g.use_color(), GPUCHECK_VERSION});
      }
      return kExitOk;
    };
  });
}

}  // namespace gpucheck
