// `gpucheck recommend --pip`: the framework builds to pip install on this
// host (or a --from report): torch, JAX, vLLM and TensorFlow builds of the
// matrix whose CUDA this driver runs natively and whose code every GPU runs
// (on AMD GPUs: ROCm builds that carry every GPU's gfx target). Newest
// first, with why newer and older builds are left out, and what the matrix
// does not say (a build whose architectures it does not list is not
// confirmed).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "facts/facts.hpp"
#include "matrix/matrix.hpp"

namespace gpucheck {

struct PipBuild {
  std::string label;                       // "torch 2.15 cu132", the matrix entry
  std::string requirement;                 // "torch==2.15.*"
  std::optional<std::string> index_url;    // "https://download.pytorch.org/whl/cu132"; none: PyPI
  std::string command;                     // "pip install 'torch==2.15.*' --index-url …"
  std::string runtime;                     // "CUDA 13.2", "ROCm 7.2"
  std::string why;                         // what was checked: the driver's floor, the GPUs' code
  std::vector<std::string> sources;
};

struct PipExcluded {
  std::string label;
  std::string reason;
  bool unconfirmed = false;  // the matrix does not say (no arch list, no driver floor); not known bad
};

struct PipFramework {
  std::string framework;                 // "torch", "jax", "vllm", "tensorflow"
  std::vector<PipBuild> builds;          // every build that fits, newest first
  std::vector<PipExcluded> newer;        // builds newer than the first fit (all builds when none fits), newest first
  std::vector<PipExcluded> older;        // older builds that do not fit, newest first
  std::size_t known = 0;                 // builds of the matrix considered
};

struct PipRecommendations {
  std::optional<std::string> driver;     // the NVIDIA driver judged by
  std::string gpus;                      // "8 × NVIDIA H100 80GB HBM3", "8 × AMD Instinct MI300X (gfx942)"
  std::string vendor;                    // "nvidia", "amd"; empty without GPUs
  std::optional<std::string> why_none;
  std::vector<PipFramework> frameworks;
};

PipRecommendations recommend_pip(const Facts& facts, const Matrix& matrix);

}  // namespace gpucheck
