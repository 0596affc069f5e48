// The matrix as the build leaves it in the binary (src/builtin/): the
// documents loaded and validated once, when gpucheck is built, and written
// as cereal's binary archive of the loaded tables and rules. A run copies
// them into place instead of parsing and checking JSON again. The version
// and date come first, so the choice between this matrix and a newer
// cached one reads them without the tables.
#pragma once

#include <string>
#include <string_view>

#include "rules/knowledge.hpp"
#include "util/result.hpp"

namespace gpucheck {

struct ImageHeader {
  std::string version;  // "2026.12.2.1"
  std::string date;     // "2026-12-02"
};

std::string write_knowledge_image(const Knowledge& k);

// `name` is where a problem says it was: bytes that are not an image of
// this format, or that end early.
Result<ImageHeader> read_image_header(std::string_view image, const std::string& name);
// origin and provenance are left empty: the caller knows where it came from.
Result<Knowledge> read_knowledge_image(std::string_view image, const std::string& name);

}  // namespace gpucheck
