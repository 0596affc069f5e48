#include "rules/knowledge.hpp"

#include "matrix/matrix_layers.hpp"
#include "matrix/matrix_load.hpp"
#include "matrix/strict_json.hpp"
#include "rules/xid_rules.hpp"
#include "util/utf8.hpp"

namespace gpucheck {

Problem first_problem(const KnowledgeCheck& checked, const std::string& path) {
  Problem p = checked.problems.front();
  if (checked.problems.size() > 1)
    p.detail += " (and " + std::to_string(checked.problems.size() - 1) + " more: gpucheck matrix validate " +
                (path.empty() ? std::string("lists them") : path) + ")";
  return p;
}

KnowledgeCheck check_knowledge(const std::vector<MatrixDocument>& docs, MatrixRole role) {
  KnowledgeCheck out;
  const auto parsed = parse_documents(docs);
  auto tables = check_matrix(parsed, role);
  auto rules = parse_rules(parsed);
  out.problems = std::move(tables.problems);
  out.problems.insert(out.problems.end(), rules.problems.begin(), rules.problems.end());
  if (out.problems.empty() && tables.matrix) {
    auto xids = xid_rules(*tables.matrix, rules.rules);
    for (auto& p : xids.problems) out.problems.push_back(Problem{p.reason, "the Xid catalogue: " + p.where, p.detail});
    if (out.problems.empty()) {
      rules.rules.insert(rules.rules.end(), xids.rules.begin(), xids.rules.end());
      out.knowledge = Knowledge{std::move(*tables.matrix), std::move(rules.rules)};
    }
  }
  // A problem quotes what it found: a 20 MB string in a matrix is named by
  // its start and size, not echoed whole to the terminal.
  for (auto& p : out.problems) {
    p.where = clip_text(p.where, 300);
    p.detail = clip_text(p.detail, 600);
  }
  return out;
}

bool is_whole_matrix(const Knowledge& k) { return !k.matrix.version.empty(); }

Result<Knowledge> lay_knowledge(Knowledge k, const std::vector<std::string>& layers) {
  for (const auto& path : layers) {
    auto docs = read_matrix_documents(path);
    if (!docs) return docs.problem();
    auto checked = check_knowledge(*docs, MatrixRole::layer);
    if (!checked.knowledge) return first_problem(checked, path);
    Knowledge& layer = *checked.knowledge;
    if (is_whole_matrix(layer)) {
      k = std::move(layer);
      k.matrix.origin = path;
      k.matrix.provenance = MatrixProvenance{};
      k.matrix.provenance.source = "given";
      k.matrix.provenance.path = path;
      continue;
    }
    lay_over(k.matrix, std::move(layer.matrix));
    // The layer's own Xid rules were made from its entries alone: the
    // catalogue as laid makes them again.
    std::erase_if(k.rules, is_xid_rule);
    std::erase_if(layer.rules, is_xid_rule);
    lay_entries(k.rules, std::move(layer.rules), [](const Rule& r) { return r.id; });
    auto xids = xid_rules(k.matrix, k.rules);
    if (!xids.problems.empty()) return Problem{xids.problems.front().reason, path + ": the Xid catalogue: " + xids.problems.front().where, xids.problems.front().detail};
    k.rules.insert(k.rules.end(), xids.rules.begin(), xids.rules.end());
    k.matrix.origin += " + " + path;
  }
  return k;
}

}  // namespace gpucheck
