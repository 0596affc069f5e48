#include "builtin/builtin_knowledge.hpp"

#include <cstddef>
#include <string_view>

namespace gpucheck {

namespace builtin {
// Written by compile_matrix.cpp when gpucheck is built (src/CMakeLists.txt).
extern const char kMatrixImage[];
extern const std::size_t kMatrixImageSize;
}  // namespace builtin

namespace {

std::string_view image() { return {builtin::kMatrixImage, builtin::kMatrixImageSize}; }
const std::string kImageName = "the built-in matrix image";

}  // namespace

Result<Knowledge> load_embedded_knowledge() {
  auto k = read_knowledge_image(image(), kImageName);
  if (k) k.value().matrix.origin = "embedded";
  return k;
}

Result<ImageHeader> embedded_matrix_header() { return read_image_header(image(), kImageName); }

Result<Knowledge> load_knowledge(const std::vector<std::string>& layers) {
  auto base = load_embedded_knowledge();
  if (!base) return base;
  return lay_knowledge(std::move(base).value(), layers);
}

Result<Knowledge> load_knowledge(const std::string& path) {
  return load_knowledge(path.empty() ? std::vector<std::string>{} : std::vector<std::string>{path});
}

}  // namespace gpucheck
