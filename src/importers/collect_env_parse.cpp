// collect_env's text: "Key: value" lines, three multi-line blocks (GPUs,
// cuDNN candidates, library versions) and blocks we skip (CPU, GPU topology).
// Pasted reports are often indented (Markdown code blocks) or wrapped in
// prose, so keys are matched after trimming and unknown lines are skipped.
#include <algorithm>
#include <array>
#include <cctype>

#include "importers/collect_env.hpp"
#include "facts/fact_limits.hpp"
#include "util/strings.hpp"

namespace gpucheck {

namespace {

// The full-width colon some locales' input methods produce ("GPU 0： Tesla
// P100", pytorch/pytorch#37320): accepted wherever ':' is.
constexpr std::string_view kWideColon = "\xEF\xBC\x9A";

struct KeyValue {
  std::string_view key, value;
};

std::optional<KeyValue> split_key(std::string_view line) {
  auto colon = line.find(':');
  auto width = std::size_t{1};
  if (const auto wide = line.find(kWideColon); wide != std::string_view::npos && wide < colon) {
    colon = wide;
    width = kWideColon.size();
  }
  if (colon == std::string_view::npos || colon == 0) return std::nullopt;
  return KeyValue{trim(line.substr(0, colon)), trim(line.substr(colon + width))};
}

// Pasted reports bend the format: the first key on the banner's line when
// the terminal swallowed the newline (pytorch/pytorch#145670), "PyTorch
// version 1.5.0" without its colon (pytorch/pytorch#37212).
std::string normalise_line(std::string_view raw) {
  auto line = trim(raw);
  constexpr std::string_view kBanner = "Collecting environment information...";
  if (starts_with(line, kBanner)) line = trim(line.substr(kBanner.size()));
  constexpr std::string_view kTorch = "PyTorch version ";
  if (starts_with(line, kTorch) && line.find(':') == std::string_view::npos && line.size() > kTorch.size() &&
      std::isdigit(static_cast<unsigned char>(line[kTorch.size()])))
    return "PyTorch version: " + std::string(line.substr(kTorch.size()));
  return std::string(line);
}

bool is_key_line(std::string_view text, std::string_view wanted) {
  for (auto raw : split_lines(text)) {
    const std::string line = normalise_line(raw);  // split_key's views point into it
    if (auto kv = split_key(line); kv && kv->key == wanted) return true;
  }
  return false;
}

// "GPU 0: NVIDIA A100-SXM4-80GB (UUID: GPU-…)"
std::optional<ReportGpuLine> gpu_line(std::string_view line, int number) {
  auto kv = split_key(line);
  if (!kv || !starts_with(kv->key, "GPU ") || kv->value.empty()) return std::nullopt;
  const auto index = parse_int_in(kv->key.substr(4), 0, 1 << 20);
  if (!index) return std::nullopt;
  ReportGpuLine g{*index, std::string(kv->value), std::nullopt, number};
  if (const auto u = g.name.find(" (UUID: "); u != std::string::npos && g.name.back() == ')') {
    g.uuid = g.name.substr(u + 8, g.name.size() - u - 9);
    g.name.resize(u);
  }
  return g;
}

bool is_path(std::string_view s) {
  return starts_with(s, "/") || (s.size() > 2 && s[1] == ':' && (s[2] == '\\' || s[2] == '/'));
}

// "[pip3] torch==2.1.0+cu121", "[pip] torch (0.4.1)",
// "[conda] pytorch  2.1.0  py3.10_cuda12.1_cudnn8.9.2_0  pytorch".
std::optional<ReportPackage> package_line(std::string_view line, int number) {
  const auto close = line.find(']');
  if (!starts_with(line, "[") || close == std::string_view::npos) return std::nullopt;
  ReportPackage p;
  p.manager = std::string(line.substr(1, close - 1));
  p.line = number;
  const auto rest = trim(line.substr(close + 1));
  if (rest.empty() || rest == "Could not collect") return std::nullopt;
  if (p.manager == "conda") {
    std::vector<std::string_view> words;
    for (auto w : split(rest, ' '))
      if (!w.empty()) words.push_back(w);
    if (words.size() < 2) return std::nullopt;
    p.name = std::string(words[0]);
    p.version = std::string(words[1]);
    if (words.size() > 2) p.build = std::string(words[2]);
    if (words.size() > 3) p.channel = std::string(words[3]);
    return p;
  }
  if (const auto eq = rest.find("=="); eq != std::string_view::npos) {
    p.name = std::string(trim(rest.substr(0, eq)));
    p.version = std::string(trim(rest.substr(eq + 2)));
  } else if (const auto paren = rest.find(" ("); paren != std::string_view::npos && rest.back() == ')') {
    p.name = std::string(rest.substr(0, paren));
    p.version = std::string(rest.substr(paren + 2, rest.size() - paren - 3));
  } else {
    return std::nullopt;
  }
  if (p.name.empty() || p.version.empty()) return std::nullopt;
  return p;
}

enum class Block { none, gpus, cudnn, packages, skipped };

using Field = std::optional<ReportValue> CollectEnvReport::*;
const std::array<std::pair<std::string_view, Field>, 24> kKeys{{
    {"PyTorch version", &CollectEnvReport::torch_version},
    {"Is debug build", &CollectEnvReport::debug_build},
    {"CUDA used to build PyTorch", &CollectEnvReport::cuda_build},
    {"ROCM used to build PyTorch", &CollectEnvReport::rocm_build},
    {"OS", &CollectEnvReport::os},
    {"GCC version", &CollectEnvReport::gcc},
    {"Clang version", &CollectEnvReport::clang},
    {"CMake version", &CollectEnvReport::cmake},
    {"Libc version", &CollectEnvReport::libc},
    {"Python version", &CollectEnvReport::python_version},
    {"Python platform", &CollectEnvReport::python_platform},
    {"Is CUDA available", &CollectEnvReport::cuda_available},
    {"CUDA runtime version", &CollectEnvReport::cuda_runtime},
    {"CUDA_MODULE_LOADING set to", &CollectEnvReport::cuda_module_loading},
    {"GPU models and configuration", &CollectEnvReport::gpu_models},
    {"Nvidia driver version", &CollectEnvReport::driver_version},
    {"cuDNN version", &CollectEnvReport::cudnn},
    {"HIP runtime version", &CollectEnvReport::hip_runtime},
    {"MIOpen runtime version", &CollectEnvReport::miopen_runtime},
    {"Is XNNPACK available", &CollectEnvReport::xnnpack},
    {"vLLM Version", &CollectEnvReport::vllm_version},
    {"vLLM Build Flags", &CollectEnvReport::vllm_build_flags},
    {"ROCM Version", &CollectEnvReport::rocm_version},
    {"Neuron SDK Version", nullptr},
}};

// Lines a terminal or a web page glued together: "ROCM used to build
// PyTorch: N/AOS: Ubuntu 22.04", "GPU 7: NVIDIA H100 80GB HBM3Nvidia driver
// version: 535.216.01" (pytorch/pytorch#139298 as stored). A key glued to
// the end of a key line's value starts a line of its own.
std::vector<std::string> unglue(std::string line) {
  std::vector<std::string> out;
  for (;;) {
    std::size_t cut = std::string::npos;
    const auto colon = line.find(':');
    if (colon != std::string::npos)
      for (auto& [key, field] : kKeys) {
        const std::string marker = std::string(key) + ":";
        for (auto at = line.find(marker, colon + 1); at != std::string::npos; at = line.find(marker, at + 1))
          if (at > colon + 1 && line[at - 1] != ' ' && line[at - 1] != '\t' && at < cut) {
            cut = at;
            break;
          }
      }
    if (cut == std::string::npos) break;
    out.push_back(line.substr(0, cut));
    line.erase(0, cut);
  }
  out.push_back(std::move(line));
  return out;
}


}  // namespace

bool looks_like_collect_env(std::string_view text) { return is_key_line(text, "PyTorch version"); }

bool is_collect_env_key(std::string_view raw) {
  const std::string line = normalise_line(raw);
  const auto kv = split_key(line);
  if (!kv) return false;
  for (auto& [key, field] : kKeys)
    if (kv->key == key) return true;
  return false;
}

bool opens_collect_env(std::string_view raw) {
  const auto t = trim(raw);
  if (starts_with(t, "Collecting environment information") || starts_with(t, "Versions of relevant libraries") ||
      starts_with(t, "Version of relevant libraries"))
    return true;
  const std::string line = normalise_line(t);
  const auto kv = split_key(line);
  return kv && kv->key == "PyTorch version";
}

bool looks_like_vllm_collect_env(std::string_view text) {
  return is_key_line(text, "vLLM Version") || is_key_line(text, "vLLM Build Flags");
}

CollectEnvReport parse_collect_env(std::string_view text) {
  CollectEnvReport r;

  Block block = Block::none;
  int number = 0;
  for (auto raw : split_lines(text)) {
    ++number;
    for (const auto& piece : unglue(normalise_line(raw))) {
    const std::string_view line = piece;
    if (block == Block::gpus) {
      if (auto g = gpu_line(line, number)) {
        r.gpus.push_back(std::move(*g));
        continue;
      }
      block = Block::none;
    } else if (block == Block::cudnn) {
      if (is_path(line)) {
        r.cudnn_candidates.push_back(ReportValue{std::string(line), number});
        continue;
      }
      block = Block::none;
    } else if (block == Block::packages) {
      if (starts_with(line, "[")) {
        if (auto p = package_line(line, number); p && r.packages.size() <= kMaxPackagesPerEnv) r.packages.push_back(std::move(*p));
        continue;
      }
      block = Block::none;
    } else if (block == Block::skipped) {
      if (!line.empty()) continue;
      block = Block::none;
    }

    if (starts_with(line, "Versions of relevant libraries") || starts_with(line, "Version of relevant libraries")) {
      block = Block::packages;
      continue;
    }
    // lscpu's block and vLLM's topology matrix and environment: nothing we map.
    if (line == "CPU:" || line == "GPU Topology:" || starts_with(line, "NVIDIA_VISIBLE_DEVICES")) {
      block = Block::skipped;
      continue;
    }
    const auto kv = split_key(line);
    if (!kv) continue;
    for (auto& [key, field] : kKeys) {
      if (kv->key != key || !field) continue;
      if (!(r.*field)) r.*field = ReportValue{std::string(kv->value), number};
      if (key == "GPU models and configuration") {
        if (kv->value.empty()) {
          block = Block::gpus;
        } else if (auto g = gpu_line(kv->value, number)) {
          r.gpus.push_back(std::move(*g));
          block = Block::gpus;
        }
      } else if (key == "cuDNN version") {
        if (starts_with(kv->value, "Probably one of the following")) block = Block::cudnn;
      }
      break;
    }
    }
  }
  r.lines = number;
  r.vllm = r.vllm_version.has_value() || r.vllm_build_flags.has_value();

  // torch's warning, which collect_env prints above its report when it
  // imports torch on a host whose driver is older than torch's CUDA.
  constexpr std::string_view kTooOld = "driver on your system is too old (found version ";
  if (const auto at = text.find(kTooOld); at != std::string_view::npos) {
    const auto digits = text.substr(at + kTooOld.size());
    const auto end = digits.find_first_not_of("0123456789");
    if (end != 0 && end != std::string_view::npos && digits[end] == ')') {
      const int line = 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(at), '\n'));
      r.driver_too_old_found = ReportValue{std::string(digits.substr(0, end)), line};
    }
  }
  return r;
}

}  // namespace gpucheck
