// The build string of PyTorch's own conda package (channel pytorch), which
// names the CUDA and cuDNN it was built with: "py3.10_cuda11.8_cudnn8.7.0_0",
// "py3.10_cpu_0". Read from conda-meta file names and from collect_env's
// "[conda] pytorch" lines alike.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "facts/facts.hpp"

namespace gpucheck {

struct CondaBuild {
  std::optional<std::string> cuda, cudnn;  // the first "cudaX" / "cudnnY" part whose rest is a version
  bool cpu_only = false;                   // a "cpu" part and no CUDA one
};
CondaBuild parse_conda_build(std::string_view build);

// Fills what `f` does not know yet: the framework's own build files, read
// before, take precedence over its conda package's build string.
void add_conda_build_facts(FrameworkBuild& f, const CondaBuild& b);

}  // namespace gpucheck
