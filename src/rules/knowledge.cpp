#include "rules/knowledge.hpp"

#include "matrix/matrix_load.hpp"

namespace gpucheck {

KnowledgeCheck check_knowledge(const std::vector<MatrixDocument>& docs) {
  KnowledgeCheck out;
  auto tables = check_matrix(docs);
  auto rules = parse_rules(docs);
  out.problems = std::move(tables.problems);
  out.problems.insert(out.problems.end(), rules.problems.begin(), rules.problems.end());
  if (out.problems.empty() && tables.matrix) out.knowledge = Knowledge{std::move(*tables.matrix), std::move(rules.rules)};
  return out;
}

Result<Knowledge> load_knowledge(const std::string& path) {
  std::vector<MatrixDocument> docs;
  if (path.empty()) {
    docs = embedded_matrix_documents();
  } else {
    auto read = read_matrix_documents(path);
    if (!read) return read.problem();
    docs = std::move(read).value();
  }
  auto checked = check_knowledge(docs);
  if (!checked.knowledge) {
    Problem p = checked.problems.front();
    if (checked.problems.size() > 1)
      p.detail += " (and " + std::to_string(checked.problems.size() - 1) + " more: gpucheck matrix validate " +
                  (path.empty() ? std::string("lists them") : path) + ")";
    return p;
  }
  checked.knowledge->matrix.origin = path.empty() ? "embedded" : path;
  return std::move(*checked.knowledge);
}

}  // namespace gpucheck
