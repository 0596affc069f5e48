// What gpucheck knows: the matrix's tables and its rules, read from the same
// documents (embedded by default, --matrix PATH otherwise). Nothing runs on a
// matrix that failed validation.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "matrix/matrix.hpp"
#include "matrix/matrix_document.hpp"
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
KnowledgeCheck check_knowledge(const std::vector<MatrixDocument>& docs);

// path "" means the embedded matrix. The problem is the first one found; its
// detail says how many more `gpucheck matrix validate` would list.
Result<Knowledge> load_knowledge(const std::string& path);

}  // namespace gpucheck
