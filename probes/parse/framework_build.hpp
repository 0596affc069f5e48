// Which of an environment's distributions are GPU frameworks, and what their
// names, versions and own build files (torch/version.py, …) say they were
// built for. Strings in, FrameworkBuild facts out; the probe reads the files.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "facts/facts.hpp"

namespace gpucheck {

// `name` normalised (PEP 503): "torch", "jax-cuda12-plugin", "cupy-cuda12x"; not "tensorrt-cu12-libs".
bool is_framework(std::string_view name);

// "tensorflow" and "tensorflow-cpu" are of the family "tensorflow"; "tensorflowx" is not.
bool matches_family(std::string_view name, std::string_view family);

// The CUDA variant in a distribution name's part: "cuda12x" -> "12",
// "cuda118" -> "11.8", "cu12" -> "12".
std::optional<std::string> cuda_from_name_part(std::string_view part);

// Name, version and local tag, and the CUDA or ROCm that a variant's name
// states (jax-cuda12-plugin, cupy-cuda118, cupy-rocm-5-0, transformer-engine-cu12).
FrameworkBuild framework_from_name(std::string_view name, std::string_view version);

// Fills what `f` does not know yet from its local tag ("+cu121", "+cpu",
// "+cuda12.cudnn89"): the build's own files, read before, take precedence.
void add_local_tag_facts(FrameworkBuild& f);

// A framework's file that records its build, and what it says.
struct FrameworkBuildFile {
  std::string_view path;  // below site-packages: "/torch/version.py"
  bool always_there;      // every build of the framework has it, so its absence is noted
  void (*read)(std::string_view text, FrameworkBuild& f);
};
// nullptr for a framework without one.
const FrameworkBuildFile* framework_build_file(std::string_view name);

}  // namespace gpucheck
