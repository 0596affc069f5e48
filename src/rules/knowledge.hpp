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
  bool operator==(const Knowledge&) const = default;
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

// `layers` (files or directories of documents) laid over `base` in order
// (matrix/matrix_layers.hpp; rules by id alike); a layer that is a whole
// matrix replaces what is below it. origin says what was used: "embedded",
// "embedded + team.json", "newer.json". The problem is the first one found;
// its detail says how many more `gpucheck matrix validate` would list. The
// base is the built-in matrix (builtin/builtin_knowledge.hpp) or a newer one
// from the cache (update/matrix_source.hpp).
Result<Knowledge> lay_knowledge(Knowledge base, const std::vector<std::string>& layers);

}  // namespace gpucheck
