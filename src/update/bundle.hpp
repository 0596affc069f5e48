// A matrix bundle: a whole matrix as one JSON document (the form a matrix
// takes to travel: downloaded, cached, signed). Its sections are those of
// the documents it was made from, concatenated in their order, which is how
// the loader reads a directory anyway (docs/matrix.md), so a bundle is also
// a valid --matrix file.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "matrix/matrix_document.hpp"
#include "rules/knowledge.hpp"
#include "util/result.hpp"

namespace gpucheck {

// Far above the shipped matrix (~300 KB): what a download may weigh.
inline constexpr std::size_t kMaxBundleBytes = 16u << 20;

// One document from many; the result is checked as a whole matrix (rules
// included) before it is returned, so an exported bundle always loads.
// `path`: where the documents were read ("" for the embedded ones), which a
// problem's `gpucheck matrix validate PATH` hint names.
Result<std::string> bundle_from_documents(const std::vector<MatrixDocument>& docs, const std::string& path);

// The bundle as knowledge, checked as a whole matrix; `validated` skips the
// duplicate-key check for bytes checked before (a cache whose signature and
// hash still match what was installed).
Result<Knowledge> read_bundle(std::string_view text, const std::string& name, bool validated = false);

}  // namespace gpucheck
