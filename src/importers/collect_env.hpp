// PyTorch's `python -m torch.utils.collect_env` and vLLM's collect_env.py:
// the text as written (every release since 0.4, both "Key: value" and vLLM's
// padded "Key   : value" spelling), then mapped into Facts.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "facts/facts.hpp"

namespace gpucheck {

// A value and the 1-based line it was read from.
struct ReportValue {
  std::string text;
  int line = 0;
};

struct ReportGpuLine {
  std::optional<int> index;  // "GPU 3: …"; nullopt for the bare name older releases print for one GPU
  std::string name;
  std::optional<std::string> uuid;  // "(UUID: GPU-…)", when the user's collect_env kept it
  int line = 0;
};

struct ReportPackage {
  std::string manager;  // "pip", "pip3", "conda"
  std::string name, version;
  std::optional<std::string> build, channel;  // conda only
  int line = 0;
};

// Every field as written; "Could not collect", "N/A", "None" are kept here
// and judged by the mapping (collect_env_facts.cpp).
struct CollectEnvReport {
  bool vllm = false;  // vLLM's variant (its "vLLM Version" / "vLLM Build Flags" lines)
  std::optional<ReportValue> torch_version, debug_build, cuda_build, rocm_build;
  std::optional<ReportValue> os, gcc, clang, cmake, libc;
  std::optional<ReportValue> python_version, python_platform;
  std::optional<ReportValue> cuda_available, cuda_runtime, cuda_module_loading;
  std::optional<ReportValue> gpu_models;  // the value on the key's own line, when there is one
  std::vector<ReportGpuLine> gpus;
  std::optional<ReportValue> driver_version;
  std::optional<ReportValue> cudnn;              // the value on the key's own line
  std::vector<ReportValue> cudnn_candidates;     // "Probably one of the following:" paths
  std::optional<ReportValue> hip_runtime, miopen_runtime, xnnpack;
  std::vector<ReportPackage> packages;
  std::optional<ReportValue> vllm_version, vllm_build_flags, rocm_version;
  // "The NVIDIA driver on your system is too old (found version 11040)":
  // torch's own warning, printed above the report when the driver is older
  // than its CUDA. The number is cuDriverGetVersion's.
  std::optional<ReportValue> driver_too_old_found;
  // The report is the end of the paste: its last line may be cut short.
  bool ends_paste = false;
  int lines = 0;  // how many lines the report has
};

// Where a report's line N is in the paste: "NAME:(N + offset)".
struct LineSource {
  std::string name;
  int offset = 0;
  std::string operator()(int line) const { return name + ":" + std::to_string(line + offset); }
};

// True when the text holds collect_env's first key line ("PyTorch version:").
bool looks_like_collect_env(std::string_view text);
bool looks_like_vllm_collect_env(std::string_view text);

// One of collect_env's keys ("Is debug build", "cuDNN version", …), as a
// trimmed line's key, after the line normalisation the parser applies.
bool is_collect_env_key(std::string_view line);
// The line opens a report: its banner, "PyTorch version", the library list's
// heading (a report whose first half was cut off), vLLM's section rule.
bool opens_collect_env(std::string_view line);

// Never fails on text that looks_like_collect_env; lines it does not know are skipped.
CollectEnvReport parse_collect_env(std::string_view text);

// The GPU library an NVIDIA wheel carries ("nvidia-cudnn-cu12" -> "cudnn"),
// as the probe names it; nullopt for any other distribution.
std::optional<std::string> wheel_library(const std::string& dist);

// The report as Facts. `at` names each line's place in the paste
// ("report.txt:12"); `label` ("collect_env", "vllm collect_env") is how the
// Python environment was found.
Facts collect_env_facts(const CollectEnvReport& r, const std::string& label, const LineSource& at);

}  // namespace gpucheck
