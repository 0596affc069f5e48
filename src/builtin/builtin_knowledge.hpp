// The matrix built into this gpucheck: its documents, validated and compiled
// by the build into an image (rules/knowledge_image.hpp) that a run loads
// without parsing JSON. A library of its own, above the rules layer, since
// the build's compiler (compile_matrix.cpp) is made of that layer and runs
// before the image exists.
#pragma once

#include <string>
#include <vector>

#include "rules/knowledge.hpp"
#include "rules/knowledge_image.hpp"
#include "util/result.hpp"

namespace gpucheck {

// origin "embedded".
Result<Knowledge> load_embedded_knowledge();
// Its version and date alone, read without the tables.
Result<ImageHeader> embedded_matrix_header();

// The built-in matrix with `layers` laid over it (lay_knowledge), or with
// one layer, or "" for the built-in matrix alone.
Result<Knowledge> load_knowledge(const std::vector<std::string>& layers);
Result<Knowledge> load_knowledge(const std::string& path);

}  // namespace gpucheck
