// `gpucheck recommend`: for this driver and these GPUs, the newest NGC
// PyTorch, TensorFlow and JAX releases that run natively, those that need
// forward compatibility (data-center GPUs only), and why the next newer one
// does not fit. Only what the matrix knows; an unknown driver recommends nothing.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "facts/facts.hpp"
#include "matrix/matrix.hpp"

namespace gpucheck {

struct NgcChoice {
  std::string tag;          // "24.01-py3"
  std::string release;      // "24.01"
  std::string detail;       // "CUDA 12.3.2, needs driver 545"
  std::vector<std::string> sources;
};

struct NgcRecommendation {
  std::string framework;                     // "pytorch"
  std::optional<NgcChoice> native;           // newest that runs on this driver as is
  std::optional<NgcChoice> forward_compat;   // newest newer than `native` that runs through forward compatibility
  std::vector<std::string> newer_blocked;    // why the releases after the chosen one do not fit (newest first, a few)
  std::size_t releases_known = 0;
};

struct Recommendations {
  std::optional<std::string> driver;         // what the choice is for
  std::string gpus;                          // "8 × NVIDIA H100 80GB HBM3 (data center)"
  std::optional<std::string> why_none;       // no driver, no NVIDIA GPU
  std::vector<NgcRecommendation> frameworks;
};

Recommendations recommend_ngc(const Facts& facts, const Matrix& matrix);

}  // namespace gpucheck
