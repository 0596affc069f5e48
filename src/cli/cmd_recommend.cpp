// `gpucheck recommend`: the NGC container tags this driver and these GPUs
// run; with --pip, the framework builds to pip install.
#include <iostream>

#include "cli/app.hpp"
#include "cli/report_output.hpp"
#include "report/advice_report.hpp"
#include "report/matrix_json.hpp"
#include "report/pip_report.hpp"
#include "util/json_text.hpp"

namespace gpucheck {

void add_recommend_command(CLI::App& app, const GlobalOptions& g, CommandRun& action) {
  auto* cmd = app.add_subcommand(
      "recommend",
      "Name the NGC containers this driver and GPUs run. The newest PyTorch, TensorFlow and JAX containers "
      "that run natively, those that need forward compatibility (data-center GPUs only), and why newer ones do not "
      "fit. With --pip, the torch, JAX, vLLM and TensorFlow builds to pip install instead (package, version, index URL), "
      "newest first, and why newer ones are left out. Exit code 0 whenever it ran.");
  auto output = std::make_shared<OutputFlags>();
  auto pip = std::make_shared<bool>(false);
  cmd->add_flag("--pip", *pip,
                "Name the pip builds (torch, JAX, vLLM, TensorFlow) whose CUDA this driver runs natively and whose code "
                "every GPU runs (AMD GPUs: ROCm builds carrying their gfx targets); a build whose architectures the matrix "
                "does not list is shown as unconfirmed, not recommended");
  add_output_options(cmd, *output, "Output format: text (for a person, the default); json (gpucheck.recommend/1)", {"text", "json"});
  cmd->callback([&g, &action, output, pip] {
    action = [&g, output, pip] {
      std::string origin;
      auto loaded = load_knowledge_and_facts(g, g.probe_options(), &origin);
      if (!loaded) return kExitUsage;
      const Matrix& matrix = loaded->knowledge.matrix;
      const auto rec = *pip ? Recommendations{} : recommend_ngc(loaded->facts, matrix);
      const auto pips = *pip ? recommend_pip(loaded->facts, matrix) : PipRecommendations{};
      const auto render = [&](const std::string& format, bool colour) {
        const ReportOptions options{colour, GPUCHECK_VERSION};
        if (format == "text") return *pip ? render_pip_text(pips, options) : render_recommendations_text(rec, options);
        nlohmann::ordered_json j;
        j["schema"] = "gpucheck.recommend/1";
        j["gpucheck_version"] = GPUCHECK_VERSION;
        j["matrix"] = matrix_json(matrix);
        j["source"] = origin;
        if (*pip) j["pip"] = pip_json(pips);
        else j["recommendations"] = recommendations_json(rec);
        return dump_json(j, 2) + "\n";
      };
      return emit_documents(*output, g, render) ? kExitOk : kExitUsage;
    };
  });
}

}  // namespace gpucheck
