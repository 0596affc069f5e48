// Small helpers the block readers share: "Key: value" splitting, bullets
// and Markdown emphasis, the words tools print for "no value".
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "importers/paste.hpp"

namespace gpucheck {

struct KeyText {
  std::string_view key, value;
};

// "Key: value", "Key : value", "- Key: value", "**Key**: value", "`key` version: v":
// the key without bullet, emphasis and backticks' line noise, both trimmed.
// `sep` is the separator (':' or '='). nullopt without one, or with an empty key.
std::optional<KeyText> key_text(std::string_view line, char sep = ':');

// "- ", "* ", "+ " and Markdown emphasis around a line.
std::string_view strip_bullet(std::string_view line);

// Lower case, backticks and asterisks removed, inner spaces kept: the key as compared.
std::string key_name(std::string_view key);

// Words tools print for "no value": N/A, None, Not Found, Could not collect, …
bool is_no_value(std::string_view v);

// "12.4", "2.1.0+cu121", "535.104.05", "0.4.30.dev20240101": starts with a
// digit, has a dot, and holds no space.
bool looks_like_version(std::string_view v);

bool ends_with(std::string_view s, std::string_view suffix);

// The first whitespace-separated word.
std::string_view first_word(std::string_view s);

// Every word between spaces and tabs: a table row's cells.
std::vector<std::string_view> words_of(std::string_view s);

// True when the line (trimmed) is a prose sentence rather than tool output:
// it ends in '.', '?' or '!' and holds at least four spaces. A cheap test the
// permissive readers use to stop.
bool is_prose(std::string_view trimmed_line);

// "GPU 0: NVIDIA A100-SXM4-80GB (UUID: GPU-…)": how nvidia-smi -L (and
// nvidia-smi nvlink -s) name a GPU; nullopt for any other line.
struct ListedGpu {
  int index;
  std::string_view name, uuid;
};
std::optional<ListedGpu> listed_gpu(std::string_view trimmed_line);
// The key a paste gives a GPU it names by index: "report:GPU0".
std::string report_gpu_key(long long index);
// The GPU such a line names, keyed by its index.
SmiGpu smi_gpu(const ListedGpu& g);

// A FrameworkBuild for torch from its version string ("2.1.0+cu121"): the
// local tag and the CUDA or ROCm it names.
FrameworkBuild torch_from_version(std::string_view version, const std::string& source);

// The one report Python environment the paste describes, created when absent.
PythonEnv& report_python(Facts& f);

// A FrameworkBuild named `name` in `env`, created when absent.
FrameworkBuild& report_framework(PythonEnv& env, std::string_view name);

// The deep-probe answer of `name` (what an import of it said), created when absent.
DeepFramework& report_deep(PythonEnv& env, std::string_view name);

// A Distribution (pip or conda) for the report environment.
void add_distribution(Facts& f, std::string_view name, std::string_view version, const std::string& source,
                      std::string_view installer);

}  // namespace gpucheck
