// What gpucheck knows: the matrix's tables and its rules, read from the same
// documents (embedded by default, --matrix PATH otherwise). Nothing runs on a
// matrix that failed validation.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "matrix/matrix.hpp"
#include "matrix/matrix_document.hpp"
#include "matrix/matrix_load.hpp"
#include "rules/rule.hpp"
#include "util/result.hpp"

namespace gpucheck {

struct Knowledge {
  Matrix matrix;
  std::vector<Rule> rules;
};

// Every problem of the tables and of the rules, for `gpucheck matrix validate`.
struct KnowledgeCheck {
  std::optional<Knowledge> knowledge;
  std::vector<Problem> problems;
};
KnowledgeCheck check_knowledge(const std::vector<MatrixDocument>& docs, MatrixRole role = MatrixRole::complete);

// The first problem; its detail says how many more `gpucheck matrix
// validate PATH` would list (PATH "": the embedded matrix).
Problem first_problem(const KnowledgeCheck& checked, const std::string& path);

// Documents that carry a version and date: a matrix of their own, not a layer.
bool is_whole_matrix(const Knowledge& k);

// The embedded matrix with `layers` (files or directories of documents)
// laid over it in order (matrix/matrix_layers.hpp; rules by id alike); a
// layer that is a whole matrix replaces what is below it. origin says what
// was used: "embedded", "embedded + team.json", "newer.json". The problem
// is the first one found; its detail says how many more `gpucheck matrix
// validate` would list.
Result<Knowledge> load_knowledge(const std::vector<std::string>& layers);
// The embedded matrix alone, and `layers` laid over a given base (the
// embedded matrix, or a newer one from the cache: update/matrix_source.hpp).
Result<Knowledge> load_embedded_knowledge();
Result<Knowledge> lay_knowledge(Knowledge base, const std::vector<std::string>& layers);
// One layer, or "" for the embedded matrix alone.
Result<Knowledge> load_knowledge(const std::string& path);

}  // namespace gpucheck
