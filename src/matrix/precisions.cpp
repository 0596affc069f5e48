#include "matrix/precisions.hpp"

namespace gpucheck {

namespace {

struct Row {
  std::string_view checked;  // "" where no kernel checks it
  std::string_view matrix;
};
constexpr Row kPrecisions[] = {
    {"fp64", "fp64"},         {"fp32", "fp32"},         {"tf32", "tf32"}, {"fp16", "fp16"},
    {"bf16", "bf16"},         {"int8", "int8"},         {"fp8_e4m3", "fp8"}, {"fp8_e5m2", "fp8"},
    {"fp6_e3m2", "fp6"},      {"fp6_e2m3", "fp6"},      {"fp4", "fp4"},   {"", "int4"},
};

// The matrix's names, each once (a family's rows are adjacent), in table order.
std::vector<std::string> families(bool checked_only) {
  std::vector<std::string> out;
  for (const auto& r : kPrecisions)
    if ((!checked_only || !r.checked.empty()) && (out.empty() || out.back() != r.matrix)) out.emplace_back(r.matrix);
  return out;
}

}  // namespace

const std::vector<std::string>& checked_precisions() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const auto& r : kPrecisions)
      if (!r.checked.empty()) out.emplace_back(r.checked);
    return out;
  }();
  return names;
}

const std::vector<std::string>& matrix_precisions() {
  static const std::vector<std::string> names = families(false);
  return names;
}

const std::vector<std::string>& requirable_precisions() {
  static const std::vector<std::string> names = families(true);
  return names;
}

std::optional<std::string> matrix_precision_of(std::string_view checked) {
  for (const auto& r : kPrecisions)
    if (!r.checked.empty() && r.checked == checked) return std::string(r.matrix);
  return std::nullopt;
}

}  // namespace gpucheck
