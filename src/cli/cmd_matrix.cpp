// `gpucheck matrix validate|show|docs`: the compatibility matrix itself.
#include <iostream>
#include <string>

#include "cli/app.hpp"
#include "report/rules_doc.hpp"

namespace gpucheck {

namespace {

std::string contents(const Knowledge& k) {
  const auto& m = k.matrix;
  return std::to_string(m.gpus.size()) + " GPU models, " + std::to_string(m.arch_precisions.size()) + " architectures, " +
         std::to_string(m.cuda_releases.size()) + " CUDA releases, " + std::to_string(m.rocm_releases.size()) +
         " ROCm releases, " + std::to_string(m.frameworks.size()) + " framework builds, " + std::to_string(m.ngc.size()) +
         " NGC releases, " + std::to_string(k.rules.size()) + " rules";
}

int validate(const std::vector<std::string>& paths) {
  int rc = kExitOk;
  for (auto& path : paths) {
    auto docs = read_matrix_documents(path);
    if (!docs) {
      std::cerr << "gpucheck: cannot read " << docs.problem().where << ": " << docs.problem().detail << "\n";
      return kExitUsage;
    }
    auto checked = check_knowledge(*docs);
    if (checked.problems.empty()) {
      const auto& k = *checked.knowledge;
      std::cout << path << ": valid matrix " << k.matrix.version << " (" << k.matrix.date << "): " << contents(k) << "\n";
      continue;
    }
    rc = kExitFindings;
    for (auto& p : checked.problems) std::cout << p.where << ": " << p.detail << "\n";
    std::cout << path << ": " << checked.problems.size() << " problem" << (checked.problems.size() == 1 ? "" : "s")
              << "; gpucheck will not run on this matrix\n";
  }
  return rc;
}

}  // namespace

void add_matrix_command(CLI::App& app, const GlobalOptions& g, Action& action) {
  auto* cmd = app.add_subcommand("matrix", "The compatibility matrix: validate a matrix file, show the one in use, "
                                           "or print docs/rules.md from it");
  cmd->require_subcommand(1);
  auto paths = std::make_shared<std::vector<std::string>>();
  auto* v = cmd->add_subcommand("validate",
                                "Check matrix files (a JSON file or a directory of them) and list every problem with its "
                                "file, JSON path and reason. Exit code 0: valid; 1: problems; 2: unreadable");
  v->add_option("path", *paths, "Matrix file or directory")->required()->type_name("PATH");
  v->callback([&action, paths] { action = [paths] { return validate(*paths); }; });

  auto* show = cmd->add_subcommand("show", "Which matrix is in use (--matrix or the built-in one), its version, date and contents");
  show->callback([&g, &action] {
    action = [&g] {
      auto k = load_knowledge_or_report(g);
      if (!k) return kExitUsage;
      const auto& m = k->matrix;
      std::cout << "matrix   " << m.version << " (" << m.date << ")\n"
                << "origin   " << m.origin << "\n"
                << "contents " << contents(*k) << "\n";
      return kExitOk;
    };
  });

  auto* docs = cmd->add_subcommand("docs", "Print the rules, categories and facts as Markdown (docs/rules.md)");
  docs->callback([&g, &action] {
    action = [&g] {
      auto k = load_knowledge_or_report(g);
      if (!k) return kExitUsage;
      std::cout << render_rules_markdown(*k);
      return kExitOk;
    };
  });
}

}  // namespace gpucheck
