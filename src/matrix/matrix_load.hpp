// Loading the matrix from its JSON documents, with strict validation: a
// matrix that fails is never returned. Format: docs/matrix.md.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "matrix/matrix.hpp"
#include "matrix/matrix_document.hpp"
#include "util/result.hpp"

namespace gpucheck {

// Every problem of a set of documents, in document order; `matrix` is set
// only when there are none. For `gpucheck matrix validate`, which lists them all.
struct MatrixCheck {
  std::optional<Matrix> matrix;
  std::vector<Problem> problems;
};
// complete: one document must carry the version and date (a matrix of its
// own); layer: none needs to (entries laid over another matrix, which a
// layer that does carry them replaces instead: matrix/matrix_layers.hpp).
enum class MatrixRole { complete, layer };
MatrixCheck check_matrix(const std::vector<MatrixDocument>& docs, MatrixRole role = MatrixRole::complete);
struct ParsedDocument;  // matrix/strict_json.hpp: the same documents, parsed once
MatrixCheck check_matrix(const std::vector<ParsedDocument>& docs, MatrixRole role = MatrixRole::complete);

// The first problem (its detail says how many more there are), or the
// matrix. origin is "embedded" when every document is, else the first
// document's name.
Result<Matrix> parse_matrix(const std::vector<MatrixDocument>& docs);

// The matrix compiled into the binary.
Result<Matrix> load_embedded_matrix();
// A file or a directory of documents (read_matrix_documents); origin = path.
Result<Matrix> load_matrix(const std::string& path);

}  // namespace gpucheck
