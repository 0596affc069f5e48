// Reading matrix documents from the filesystem.
#include <algorithm>
#include <filesystem>
#include <system_error>

#include "matrix/matrix_document.hpp"
#include "util/files.hpp"

namespace gpucheck {
namespace {

namespace fs = std::filesystem;

// Far above any real matrix (the shipped one is ~300 KB): a bound, so a
// device file or a runaway download given as --matrix cannot fill memory.
constexpr std::size_t kMaxDocumentBytes = 64u << 20;

Result<MatrixDocument> read_document(const fs::path& p) {
  auto text = read_whole_file(p.string(), kMaxDocumentBytes, "matrix document");
  if (!text) return text.problem();
  return MatrixDocument{p.string(), std::move(text).value()};
}

}  // namespace

Result<std::vector<MatrixDocument>> read_matrix_documents(const std::string& path) {
  std::error_code ec;
  const fs::path root(path);
  const auto status = fs::status(root, ec);
  if (ec || !fs::exists(status)) {
    if (ec && ec != std::errc::no_such_file_or_directory)
      return Problem{Reason::permission_denied, path, ec.message()};
    return Problem{Reason::absent, path, "no such file or directory"};
  }
  if (!fs::is_directory(status)) {
    auto doc = read_document(root);
    if (!doc) return doc.problem();
    return std::vector<MatrixDocument>{std::move(doc).value()};
  }

  std::vector<fs::path> relative;
  fs::recursive_directory_iterator it(root, fs::directory_options::none, ec);
  for (; !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (it->path().extension() == ".json" && it->is_regular_file(ec))
      relative.push_back(it->path().lexically_relative(root));
  }
  if (ec) return Problem{Reason::permission_denied, path, "cannot list the directory: " + ec.message()};
  if (relative.empty()) return Problem{Reason::absent, path, "the directory holds no *.json matrix documents"};
  // Generic form so "a/b.json" sorts the same on every platform.
  std::sort(relative.begin(), relative.end(),
            [](const fs::path& a, const fs::path& b) { return a.generic_string() < b.generic_string(); });

  std::vector<MatrixDocument> docs;
  for (const auto& rel : relative) {
    auto doc = read_document(root / rel);
    if (!doc) return doc.problem();
    docs.push_back(std::move(doc).value());
  }
  return docs;
}

}  // namespace gpucheck
