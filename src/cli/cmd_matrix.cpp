// `gpucheck matrix validate|show|docs`: the compatibility matrix itself
// (update, export, sign and verify: cmd_matrix_bundle.cpp).
#include <iostream>
#include <string>

#include <algorithm>

#include "cli/app.hpp"
#include "cli/report_output.hpp"
#include "cli/cli_errors.hpp"
#include "matrix/matrix_summary.hpp"
#include "report/matrix_json.hpp"
#include "report/rules_doc.hpp"
#include "rules/matrix_age.hpp"
#include "util/json_text.hpp"

namespace gpucheck {

namespace {

std::string contents(const Knowledge& k) {
  const auto& m = k.matrix;
  struct Count {
    std::size_t n;
    const char* one;
    const char* many;
  };
  const Count counts[] = {{m.gpus.size(), "GPU model", "GPU models"},
                          {m.gpu_ids.size(), "GPU PCI id", "GPU PCI ids"},
                          {m.arch_precisions.size(), "architecture", "architectures"},
                          {m.cuda_releases.size(), "CUDA release", "CUDA releases"},
                          {m.driver_branches.size(), "driver branch", "driver branches"},
                          {m.rocm_releases.size(), "ROCm release", "ROCm releases"},
                          {m.frameworks.size(), "framework build", "framework builds"},
                          {m.ngc.size(), "NGC release", "NGC releases"},
                          {m.xids.size(), "Xid", "Xids"},
                          {m.models.size(), "model", "models"},
                          {k.rules.size(), "rule", "rules"}};
  std::string out;
  for (const auto& c : counts) {
    if (c.n == 0 && !is_whole_matrix(k)) continue;  // a layer lists what it holds
    out += (out.empty() ? "" : ", ") + std::to_string(c.n) + " " + (c.n == 1 ? c.one : c.many);
  }
  return out.empty() ? "nothing" : out;
}

// ", 3 days old" (and when that is past what check accepts silently).
std::string age_text(const Matrix& m, Day today) {
  const auto days = matrix_age_days(m, today);
  if (!days) return "";
  const int age = *days;
  if (age < 0) return ", dated after today (" + iso_date_text(today) + ")";
  std::string out = ", " + std::to_string(age) + (age == 1 ? " day" : " days") + " old";
  if (age > kMatrixMaxAgeDays) out += ": older than " + std::to_string(kMatrixMaxAgeDays) + " days, check notes it";
  return out;
}

int validate(const std::vector<std::string>& paths) {
  int rc = kExitOk;
  for (auto& path : paths) {
    auto docs = read_matrix_documents(path);
    if (!docs) {
      error_line() << "cannot read " << docs.problem().where << ": " << docs.problem().detail << "\n";
      return kExitUsage;
    }
    auto checked = check_knowledge(*docs, MatrixRole::layer);
    if (checked.problems.empty()) {
      const auto& k = *checked.knowledge;
      if (is_whole_matrix(k))
        std::cout << path << ": valid matrix " << k.matrix.version << " (" << k.matrix.date << "): " << contents(k) << "\n";
      else
        std::cout << path << ": valid matrix layer (no version of its own: laid over the matrix with --matrix): " << contents(k)
                  << "\n";
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

void add_matrix_command(CLI::App& app, const GlobalOptions& g, CommandRun& action) {
  auto* cmd = app.add_subcommand("matrix", "The compatibility matrix: show the one in use, update it from a signed "
                                           "bundle, export, sign and verify bundles for a mirror, validate matrix files, "
                                           "or print docs/rules.md from it (docs/matrix-updates.md)");
  cmd->require_subcommand(1);
  auto paths = std::make_shared<std::vector<std::string>>();
  auto* v = cmd->add_subcommand("validate",
                                "Check matrix files (a JSON file or a directory of them: a whole matrix, or a layer for "
                                "--matrix) and list every problem with its file, JSON path and reason. Exit code 0: "
                                "valid; 1: problems; 2: unreadable");
  v->add_option("path", *paths, "Matrix file or directory")->required()->type_name("PATH");
  v->callback([&action, paths] { action = [paths] { return validate(*paths); }; });

  auto* show = cmd->add_subcommand("show", "Which matrix is in use (built in, cached by `matrix update` or given with "
                                           "--matrix, and the layers over it), its version, date, age, signing key and "
                                           "URL, its contents, and each table's newest entry");
  auto show_output = std::make_shared<OutputFlags>();
  add_output_options(show, *show_output,
                     "Output format: text (for a person, the default); json (gpucheck.matrix-show/1: the `matrix` "
                     "object of `check --json`, with age_days and contents)",
                     {"text", "json"});
  show->callback([&g, &action, show_output] {
    action = [&g, show_output] {
      auto k = load_knowledge_or_report(g, false);  // its note line says why a cache was passed over
      if (!k) return kExitUsage;
      const auto today = judgement_day_or_report();
      if (!today) return kExitUsage;
      const auto& m = k->matrix;
      const auto newest = newest_entries(m);
      const auto render = [&](const std::string& format, bool) {
        if (format == "json") {
          nlohmann::ordered_json j{{"schema", "gpucheck.matrix-show/1"}};
          const auto body = matrix_json(m);
          for (auto it = body.begin(); it != body.end(); ++it) j[it.key()] = it.value();
          if (const auto days = matrix_age_days(m, *today)) j["age_days"] = *days;
          j["contents"] = contents(*k);
          for (const auto& t : newest) j["newest"][t.table] = t.newest;
          return dump_json(j, 2) + "\n";
        }
        const auto& p = m.provenance;
        std::string out = "matrix   " + m.version + " (" + m.date + ")" + age_text(m, *today) + "\n" + "origin   " + m.origin + "\n";
        if (p.source == "cached")
          out += "bundle   " + p.path + "\n" + "from     " + p.url + ", " + p.fetched + "\n" + "signed   by key " + p.signed_by + "\n";
        if (!p.note.empty()) out += "note     " + p.note + "\n";
        out += "contents " + contents(*k) + "\n" + "newest\n";
        for (const auto& t : newest) {
          std::string line = "  " + t.table + ":";
          line.resize(std::max<std::size_t>(line.size() + 1, 21), ' ');
          for (std::size_t i = 0; i < t.newest.size(); ++i) line += (i ? ", " : "") + t.newest[i];
          out += line + "\n";
        }
        return out;
      };
      return emit_documents(*show_output, g, render) ? kExitOk : kExitUsage;
    };
  });

  add_matrix_bundle_commands(cmd, g, action);

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
