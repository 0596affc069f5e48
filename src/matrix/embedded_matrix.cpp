// The embedded matrix documents, named "embedded:<path in the source tree>".
#include "matrix/embedded_matrix_data.hpp"
#include "matrix/matrix_document.hpp"

namespace gpucheck {

std::vector<MatrixDocument> embedded_matrix_documents() {
  std::vector<MatrixDocument> docs;
  for (const auto* f = embedded::kMatrixFiles; f->name != nullptr; ++f)
    docs.push_back(MatrixDocument{std::string("embedded:") + f->name, f->text});
  return docs;
}

}  // namespace gpucheck
