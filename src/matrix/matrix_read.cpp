// Reading matrix documents from the filesystem.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>

#include "matrix/matrix_document.hpp"

namespace gpucheck {
namespace {

namespace fs = std::filesystem;

Result<MatrixDocument> read_document(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) {
    std::error_code ec;
    const bool exists = fs::exists(p, ec);
    return Problem{exists ? Reason::permission_denied : Reason::absent, p.string(),
                   exists ? "cannot open the file for reading" : "no such file"};
  }
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) return Problem{Reason::failed, p.string(), "read error"};
  return MatrixDocument{p.string(), ss.str()};
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
