// GPU frameworks by name, and what their names, local tags and build files
// say. The build files are read as Python assignments, never imported.
#include "parse/framework_build.hpp"

#include <array>
#include <map>

#include "parse/local_tag.hpp"
#include "parse/python_assignments.hpp"
#include "util/strings.hpp"

namespace gpucheck {

namespace {

using Assignments = std::map<std::string, std::string>;

// A build file's None and '' are unknown, not values.
std::optional<std::string> value_of(const Assignments& a, const char* key) {
  auto it = a.find(key);
  if (it == a.end() || it->second == "None" || it->second.empty()) return std::nullopt;
  return it->second;
}

// torch/version.py: cuda = '12.1' | None, hip = '6.0.…' | None, git_version = '…'
void read_torch(std::string_view text, FrameworkBuild& f) {
  const auto a = parse_python_assignments(text);
  f.cuda = value_of(a, "cuda");
  f.hip = value_of(a, "hip");
  f.git_version = value_of(a, "git_version");
  f.cpu_only = !f.cuda && !f.hip;
}

// build_info.py: build_info['cuda_version'] = '12.2', is_cuda_build, is_rocm_build
void read_tensorflow(std::string_view text, FrameworkBuild& f) {
  const auto a = parse_python_assignments(text);
  f.cuda = value_of(a, "cuda_version");
  f.cudnn = value_of(a, "cudnn_version");
  f.hip = value_of(a, "rocm_version");
  const bool cuda_build = value_of(a, "is_cuda_build") == "True";
  const bool rocm_build = value_of(a, "is_rocm_build") == "True";
  f.cpu_only = !cuda_build && !rocm_build;
  if (!cuda_build) f.cuda.reset();
}

void read_onnxruntime(std::string_view text, FrameworkBuild& f) {
  const auto a = parse_python_assignments(text);
  f.cuda = value_of(a, "cuda_version");
  f.cudnn = value_of(a, "cudnn_version");
}

// paddle/version/__init__.py: cuda_version = '11.8' (or 'False'), cudnn_version, commit
void read_paddle(std::string_view text, FrameworkBuild& f) {
  const auto a = parse_python_assignments(text);
  f.cuda = value_of(a, "cuda_version");
  if (f.cuda == "False") f.cuda.reset();
  f.cudnn = value_of(a, "cudnn_version");
  if (f.cudnn == "False") f.cudnn.reset();
  f.git_version = value_of(a, "commit");
  f.cpu_only = !f.cuda;
}

// deepspeed/git_version_info_installed.py: git_hash, torch_info = {'cuda_version': '12.1', …}
void read_deepspeed(std::string_view text, FrameworkBuild& f) {
  const auto a = parse_python_assignments(text);
  f.git_version = value_of(a, "git_hash");
  f.cuda = value_of(a, "cuda_version");
  if (f.cuda == "0.0") f.cuda.reset();
  f.hip = value_of(a, "hip_version");
  if (f.hip == "0.0") f.hip.reset();
}

constexpr FrameworkBuildFile kTorch{"/torch/version.py", true, read_torch};
constexpr FrameworkBuildFile kTensorflow{"/tensorflow/python/platform/build_info.py", true, read_tensorflow};
constexpr FrameworkBuildFile kOnnxruntime{"/onnxruntime/capi/build_and_package_info.py", false, read_onnxruntime};
constexpr FrameworkBuildFile kPaddle{"/paddle/version/__init__.py", false, read_paddle};
constexpr FrameworkBuildFile kDeepspeed{"/deepspeed/git_version_info_installed.py", false, read_deepspeed};

}  // namespace

bool is_framework(std::string_view n) {
  static constexpr auto kExact = std::to_array<std::string_view>({
      "torch", "tensorflow", "tensorflow-gpu", "tensorflow-cpu", "tensorflow-intel", "tensorflow-rocm", "tf-nightly",
      "jax", "jaxlib", "cupy", "triton", "pytorch-triton", "pytorch-triton-rocm", "transformer-engine", "flash-attn", "flash-attn-3",
      "xformers", "deepspeed", "vllm", "onnxruntime-gpu", "tensorrt", "paddlepaddle", "paddlepaddle-gpu"});
  for (auto e : kExact)
    if (n == e) return true;
  if (starts_with(n, "jax-cuda") || starts_with(n, "jax-rocm")) return true;  // jax-cuda12-plugin, jax-cuda12-pjrt
  if (starts_with(n, "cupy-cuda") || starts_with(n, "cupy-rocm")) return true;
  if (starts_with(n, "transformer-engine-cu")) return true;
  if (starts_with(n, "tensorrt-cu") && n.find("-libs") == std::string_view::npos && n.find("-bindings") == std::string_view::npos) return true;
  return false;
}

bool matches_family(std::string_view n, std::string_view family) {
  return n == family || (n.size() > family.size() && starts_with(n, family) && n[family.size()] == '-');
}

std::optional<std::string> cuda_from_name_part(std::string_view part) {
  if (!part.empty() && part.back() == 'x') part.remove_suffix(1);
  if (starts_with(part, "cuda")) part.remove_prefix(4);
  else if (starts_with(part, "cu")) part.remove_prefix(2);
  else return std::nullopt;
  if (part.empty() || !parse_int(part)) return std::nullopt;
  if (part.size() <= 2) return std::string(part);
  return std::string(part.substr(0, part.size() - 1)) + "." + std::string(part.substr(part.size() - 1));
}

FrameworkBuild framework_from_name(std::string_view n, std::string_view version) {
  FrameworkBuild f;
  f.name = std::string(n);
  f.version = std::string(version);
  if (auto plus = version.find('+'); plus != std::string_view::npos) f.local_tag = std::string(version.substr(plus + 1));
  if (starts_with(n, "jax-cuda")) {
    f.cuda = cuda_from_name_part(split(n, '-')[1]);  // jax-cuda12-plugin
  } else if (starts_with(n, "jax-rocm")) {
    f.hip = std::string(split(n, '-')[1].substr(4));
  } else if (starts_with(n, "cupy-cuda")) {
    f.cuda = cuda_from_name_part(n.substr(5));  // cupy-cuda12x -> 12, cupy-cuda118 -> 11.8
  } else if (starts_with(n, "cupy-rocm-")) {
    auto parts = split(n, '-');  // cupy-rocm-5-0
    if (parts.size() >= 4) f.hip = std::string(parts[2]) + "." + std::string(parts[3]);
  } else if (starts_with(n, "transformer-engine-cu") || starts_with(n, "tensorrt-cu")) {
    f.cuda = cuda_from_name_part(n.substr(n.rfind('-') + 1));
  }
  return f;
}

void add_local_tag_facts(FrameworkBuild& f) {
  if (!f.local_tag) return;
  const std::string& tag = *f.local_tag;
  if (!f.cuda) f.cuda = cuda_from_local_tag(tag);
  if (!f.hip) f.hip = hip_from_local_tag(tag);
  if (!f.cudnn) f.cudnn = cudnn_from_local_tag(tag);
  if (tag == "cpu") f.cpu_only = true;
}

const FrameworkBuildFile* framework_build_file(std::string_view n) {
  if (n == "torch") return &kTorch;
  if (matches_family(n, "tensorflow") || n == "tf-nightly") return &kTensorflow;
  if (n == "onnxruntime-gpu") return &kOnnxruntime;
  if (matches_family(n, "paddlepaddle")) return &kPaddle;
  if (n == "deepspeed") return &kDeepspeed;
  return nullptr;
}

}  // namespace gpucheck
