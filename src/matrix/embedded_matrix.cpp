// The embedded matrix documents, named "embedded:<path in the source tree>".
#include "matrix/matrix_document.hpp"
#include "matrix/platform_knowledge.hpp"
#include "util/embedded_file.hpp"

namespace gpucheck {

namespace embedded {
extern const File kMatrixFiles[];  // matrix/**/*.json (src/CMakeLists.txt)
}

namespace {

MatrixDocument document(const embedded::File& f) { return MatrixDocument{std::string("embedded:") + f.name, f.text, true}; }

template <class Keep>
std::vector<MatrixDocument> documents(Keep keep) {
  std::vector<MatrixDocument> docs;
  for (const auto* f = embedded::kMatrixFiles; f->name != nullptr; ++f)
    if (keep(std::string_view(f->name))) docs.push_back(document(*f));
  return docs;
}

}  // namespace

std::vector<MatrixDocument> embedded_matrix_documents() {
  return documents([](std::string_view) { return true; });
}

std::vector<MatrixDocument> embedded_compatibility_documents() {
  return documents([](std::string_view path) { return !is_platform_document(path); });
}

std::optional<MatrixDocument> embedded_matrix_document(std::string_view path) {
  for (const auto* f = embedded::kMatrixFiles; f->name != nullptr; ++f)
    if (path == f->name) return document(*f);
  return std::nullopt;
}

}  // namespace gpucheck
