// The embedded matrix documents, named "embedded:<path in the source tree>".
#include "matrix/matrix_document.hpp"
#include "util/embedded_file.hpp"

namespace gpucheck {

namespace embedded {
extern const File kMatrixFiles[];  // matrix/**/*.json (src/CMakeLists.txt)
}

std::vector<MatrixDocument> embedded_matrix_documents() {
  std::vector<MatrixDocument> docs;
  for (const auto* f = embedded::kMatrixFiles; f->name != nullptr; ++f)
    docs.push_back(MatrixDocument{std::string("embedded:") + f->name, f->text});
  return docs;
}

}  // namespace gpucheck
