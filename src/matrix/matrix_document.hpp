// The JSON documents a matrix is read from: the copies compiled into the
// binary, or the files of a directory (or one file) given on the command line.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "util/result.hpp"

namespace gpucheck {

struct MatrixDocument {
  std::string name;  // the file path, or "embedded:matrix/gpus.json"
  std::string text;
  // Validated strictly before (the embedded ones when gpucheck was built,
  // CMakeLists.txt; a cached bundle when it was installed), so read
  // without the duplicate-key check.
  bool validated = false;
};

// Every matrix/**/*.json of the source tree as it was at build time, in
// relative-path order (cmake/embed_files.cmake generates the data).
std::vector<MatrixDocument> embedded_matrix_documents();
// One of them by its path in the source tree ("matrix/pcie.json"), if embedded.
std::optional<MatrixDocument> embedded_matrix_document(std::string_view path);
// All but the platform tables' documents (platform_knowledge.hpp), which
// their readers parse on their own: what a run loads for its rules, so the
// platform tables add nothing to that load.
std::vector<MatrixDocument> embedded_compatibility_documents();

// A single file (which may hold every section), or every *.json beneath a
// directory sorted by relative path so that the order never depends on the
// filesystem.
Result<std::vector<MatrixDocument>> read_matrix_documents(const std::string& path);

}  // namespace gpucheck
