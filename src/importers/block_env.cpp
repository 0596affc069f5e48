// Environment variables as `env`, `export` or `set` print them:
// "KEY=value", "export KEY=value", "declare -x KEY="value"". The variables
// that decide which GPUs, libraries and ISA a job gets are kept, as the
// probe keeps them from its own environment: CUDA's and NCCL's in
// software.gpu_env, ROCm's in software.rocm.env. Other variables of an
// `env` dump are understood and skipped. A shell's `echo $LD_LIBRARY_PATH`
// (after a prompt) and the value it printed on the next line count too.
#include <array>
#include <cctype>

#include "importers/block_readers.hpp"
#include "importers/block_util.hpp"
#include "util/strings.hpp"

namespace gpucheck {

namespace {

struct Assignment {
  std::string_view name, value;
};

std::optional<Assignment> assignment(std::string_view t) {
  // in prose, as inline code: `export HSA_OVERRIDE_GFX_VERSION=10.3.0`
  if (t.size() >= 2 && t.front() == '`' && t.back() == '`') t = trim(t.substr(1, t.size() - 2));
  for (std::string_view prefix : {"export ", "declare -x ", "set "})
    if (starts_with(t, prefix)) t = trim(t.substr(prefix.size()));
  const auto eq = t.find('=');
  if (eq == std::string_view::npos || eq == 0) return std::nullopt;
  const auto name = t.substr(0, eq);
  for (char c : name)
    if (!(std::isupper(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '_')) return std::nullopt;
  if (std::isdigit(static_cast<unsigned char>(name[0]))) return std::nullopt;
  auto value = trim(t.substr(eq + 1));
  if (value.size() >= 2 && (value.front() == '"' || value.front() == '\'') && value.back() == value.front())
    value = value.substr(1, value.size() - 2);
  return Assignment{name, value};
}

constexpr std::array<std::string_view, 19> kGpuEnv{
    "CUDA_VISIBLE_DEVICES", "NVIDIA_VISIBLE_DEVICES", "NVIDIA_DRIVER_CAPABILITIES", "NVIDIA_REQUIRE_CUDA", "CUDA_HOME",
    "CUDA_PATH", "CUDA_ROOT", "LD_LIBRARY_PATH", "LD_PRELOAD", "CUDA_MODULE_LOADING", "CUDA_DEVICE_ORDER",
    "PYTORCH_CUDA_ALLOC_CONF", "NVIDIA_TF32_OVERRIDE", "TORCH_ALLOW_TF32_CUBLAS_OVERRIDE", "XLA_FLAGS",
    "TF_FORCE_GPU_ALLOW_GROWTH", "TORCH_CUDA_ARCH_LIST", "CUDA_LAUNCH_BLOCKING", "CUDNN_PATH"};
constexpr std::array<std::string_view, 5> kRocmEnv{"HSA_OVERRIDE_GFX_VERSION", "HIP_VISIBLE_DEVICES", "ROCR_VISIBLE_DEVICES",
                                                   "GPU_DEVICE_ORDINAL", "ROCM_PATH"};

enum class Kept { no, gpu, rocm };

Kept kept(std::string_view name) {
  for (auto v : kGpuEnv)
    if (name == v) return Kept::gpu;
  if (starts_with(name, "NCCL_")) return Kept::gpu;
  for (auto v : kRocmEnv)
    if (name == v) return Kept::rocm;
  return Kept::no;
}

// "user@host:~$ echo $LD_LIBRARY_PATH" -> "LD_LIBRARY_PATH"; empty unless a kept variable.
std::string_view echoed(std::string_view t) {
  const auto at = t.rfind("echo $");
  if (at == std::string_view::npos || (at > 0 && t[at - 1] != ' ' && t[at - 1] != '$' && t[at - 1] != '>')) return {};
  auto name = t.substr(at + 6);
  if (starts_with(name, "{") && ends_with(name, "}")) name = name.substr(1, name.size() - 2);
  if (name.empty() || kept(name) == Kept::no) return {};
  for (char c : name)
    if (!(std::isupper(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '_')) return {};
  return name;
}

// The value an `echo $VAR` printed: the line right under the command.
std::optional<Assignment> echo_value(const PasteText& p, std::size_t i) {
  if (i == 0) return std::nullopt;
  const auto name = echoed(p.trimmed(i - 1));
  const auto value = p.trimmed(i);
  if (name.empty() || value.empty() || value.find(' ') != std::string_view::npos) return std::nullopt;
  return Assignment{name, value};
}

std::optional<Assignment> assignment_at(const PasteText& p, std::size_t i) {
  if (auto a = assignment(p.trimmed(i))) return a;
  return echo_value(p, i);
}

Opens opens(const PasteText& p, std::size_t i) {
  const auto a = assignment_at(p, i);
  return a && kept(a->name) != Kept::no ? Opens::maybe : Opens::no;
}

bool continues(const PasteText& p, std::size_t, std::size_t i) { return assignment(p.trimmed(i)).has_value(); }

void read(const PasteText& p, std::size_t first, std::size_t last, BlockFacts& out) {
  for (std::size_t k = first; k <= last; ++k) {
    const auto a = assignment_at(p, k);
    if (!a) continue;
    const std::string name(a->name);
    switch (kept(a->name)) {
      case Kept::gpu:
        out.facts.software.gpu_env[name] = std::string(a->value);
        out.where["software.gpu_env." + name] = p.at(k);
        break;
      case Kept::rocm:
        out.facts.software.rocm.env[name] = std::string(a->value);
        out.where["software.rocm.env." + name] = p.at(k);
        break;
      case Kept::no: break;
    }
  }
}

}  // namespace

BlockReader env_reader() { return {"environment variables", opens, continues, read}; }

}  // namespace gpucheck
