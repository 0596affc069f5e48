// Issue templates that put each answer under a heading ("### Driver
// version" and "535.104.05" under it; TensorFlow's "### CUDA/cuDNN version").
// A heading and a one-line answer are a block; an answer that is another
// tool's output (collect_env under "### Your current environment") is that
// tool's block, and the heading is a block alone.
#include "importers/block_readers.hpp"
#include "importers/block_util.hpp"
#include "parse/framework_build.hpp"
#include "util/strings.hpp"

namespace gpucheck {

namespace {

std::string_view heading(std::string_view t) {
  std::size_t n = 0;
  while (n < t.size() && t[n] == '#') ++n;
  if (n < 2 || n > 4 || n >= t.size() || t[n] != ' ') return {};
  return trim(t.substr(n));
}

Opens opens(const PasteText& p, std::size_t i) { return heading(p.trimmed(i)).empty() ? Opens::no : Opens::surely; }

// Another reader opens the line: the answer is a block of its own.
bool opened_elsewhere(const PasteText& p, std::size_t i) {
  for (auto& r : block_readers())
    if (r.kind != "issue template" && r.opens(p, i) != Opens::no) return true;
  return false;
}

// One answer line only: lines first+1 … i-2 continued the block, so each was
// filler; line i-1 tells whether the answer has come.
bool continues(const PasteText& p, std::size_t first, std::size_t i) {
  if (i > first + 1 && !is_paste_filler(p.trimmed(i - 1))) return false;
  const auto t = p.trimmed(i);
  return t.empty() || is_paste_filler(t) || !opened_elsewhere(p, i);
}

enum class Topic { none, driver, cuda_cudnn, python, os, tensorflow, torch, vllm, ollama, rocm };

Topic topic(std::string_view h) {
  const std::string k = key_name(h);
  auto has = [&](std::string_view w) { return k.find(w) != std::string::npos; };
  if (has("driver")) return Topic::driver;
  if (has("cuda/cudnn") || has("cuda / cudnn")) return Topic::cuda_cudnn;
  if (has("python version")) return Topic::python;
  if (has("os platform") || k == "os" || has("operating system")) return Topic::os;
  if (has("tensorflow version")) return Topic::tensorflow;
  if (has("pytorch version") || has("torch version")) return Topic::torch;
  if (has("vllm version")) return Topic::vllm;
  if (has("ollama version")) return Topic::ollama;
  if (has("rocm version")) return Topic::rocm;
  return Topic::none;
}

// "CUDA 12.2, cuDNN 8.9" -> the version after `word`, case-insensitive.
std::optional<std::string> version_after(std::string_view text, std::string_view word) {
  const std::string lower = to_lower(text);
  const auto at = lower.find(to_lower(word));
  if (at == std::string::npos) return std::nullopt;
  auto rest = trim(text.substr(at + word.size()));
  while (!rest.empty() && (rest.front() == ':' || rest.front() == ' ' || rest.front() == 'v')) rest.remove_prefix(1);
  auto v = first_word(rest);
  while (!v.empty() && (v.back() == ',' || v.back() == ';' || v.back() == ')')) v.remove_suffix(1);
  if (!looks_like_version(v) && !(v.size() <= 3 && !v.empty() && std::isdigit(static_cast<unsigned char>(v[0])))) return std::nullopt;
  return std::string(v);
}

void read(const PasteText& p, std::size_t first, std::size_t last, BlockFacts& out) {
  std::size_t k = first + 1;
  while (k <= last && is_paste_filler(p.trimmed(k))) ++k;
  if (k > last) return;
  const auto answer = p.trimmed(k);
  const std::string source = p.at(k);
  const auto v = first_word(answer);
  bool read_it = true;
  switch (topic(heading(p.trimmed(first)))) {
    case Topic::driver:
      if (!looks_like_version(v)) { read_it = false; break; }
      out.facts.nvidia_smi = NvidiaSmiFacts{};
      out.facts.nvidia_smi->driver_version = std::string(v);
      out.facts.nvidia_smi->source = source;
      out.where["nvidia_smi.driver_version"] = source;
      break;
    case Topic::cuda_cudnn: {
      // The toolkit's, as users answer it; cuDNN's after it.
      const auto cuda = version_after(answer, "cuda");
      const auto cudnn = version_after(answer, "cudnn");
      read_it = cuda || cudnn;
      if (cuda) {
        CudaToolkit tk;
        tk.root = "(from report)";
        tk.kind = "report";
        tk.version = cuda;
        tk.version_source = source;
        tk.active = true;
        tk.active_because = {"the issue's answer to \"" + std::string(heading(p.trimmed(first))) + "\""};
        out.facts.software.toolkits.push_back(std::move(tk));
      }
      if (cudnn) out.facts.software.libraries.push_back(LibraryInstall{"cudnn", cudnn, source, std::nullopt, "(from report)"});
      break;
    }
    case Topic::python:
      if (!looks_like_version(v)) { read_it = false; break; }
      report_python(out.facts).version = std::string(v);
      out.where["python.version"] = source;
      break;
    case Topic::os: {
      out.facts.system.os.pretty_name = std::string(answer);
      out.facts.system.os.source = source;
      // "win10", "Windows 11 x64": native Windows, unless the answer names WSL
      const auto low = to_lower(answer);
      if (starts_with(low, "win") && low.find("wsl") == std::string::npos) out.facts.system.os.id = "windows";
      break;
    }
    case Topic::tensorflow:
    case Topic::torch:
    case Topic::ollama:
    case Topic::vllm: {
      // "tf 2.15", "2.1.0+cu121", "v0.6.3"
      auto word = v;
      for (std::string_view prefix : {"tf", "v"})
        if (starts_with(word, prefix) && word.size() > prefix.size() && std::isdigit(static_cast<unsigned char>(word[prefix.size()])))
          word.remove_prefix(prefix.size());
      if (!looks_like_version(word)) word = first_word(answer.substr(std::min(answer.size(), v.size())));
      if (!looks_like_version(word)) { read_it = false; break; }
      const auto t = topic(heading(p.trimmed(first)));
      const std::string name = t == Topic::tensorflow ? "tensorflow" : t == Topic::torch ? "torch" : t == Topic::ollama ? "ollama" : "vllm";
      FrameworkBuild f = t == Topic::torch ? torch_from_version(word, source) : framework_from_name(name, word);
      f.source = source;
      add_local_tag_facts(f);
      report_python(out.facts).frameworks.push_back(std::move(f));
      break;
    }
    case Topic::rocm:
      if (!looks_like_version(v)) { read_it = false; break; }
      out.facts.software.rocm.installs.push_back(RocmInstall{"(from report)", std::string(v), source, true});
      break;
    case Topic::none: read_it = false; break;
  }
  if (!read_it) out.unread.push_back(k);
}

}  // namespace

BlockReader template_reader() { return {"issue template", opens, continues, read}; }

}  // namespace gpucheck
