// Strict JSON for the matrix: nlohmann's parser silently keeps the last of two
// equal keys, which hides a copy-paste error in a data file, so the matrix is
// read through a SAX handler that rejects duplicate keys by JSON pointer.
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "matrix/matrix_document.hpp"
#include "util/result.hpp"

namespace gpucheck {

// Parses `text`; a Problem's where is "<name>: line L, column C" for syntax
// errors and "<name>: <JSON pointer>" for a duplicate key.
Result<nlohmann::json> parse_strict_json(std::string_view text, const std::string& name);

// A matrix document parsed once, for each of its readers: the tables'
// loader and the rules' (parsing is most of what loading a matrix costs).
struct ParsedDocument {
  std::string name;
  Result<nlohmann::json> root;
};
std::vector<ParsedDocument> parse_documents(const std::vector<MatrixDocument>& docs);

// "/gpus/3" + "id" -> "/gpus/3/id", escaping "~" and "/" as RFC 6901 says.
std::string pointer_append(const std::string& pointer, std::string_view token);

}  // namespace gpucheck
