// torch.__config__.show(): "PyTorch built with:" and a bullet per part of
// the build. It states the build's CUDA ("CUDA Runtime 12.1"), cuDNN
// ("CuDNN 8.9.2"), HIP ("HIP Runtime 6.0.32830"), the architectures
// compiled ("NVCC architecture flags: -gencode;arch=compute_80,code=sm_80;…")
// and its version (TORCH_VERSION=2.1.0 among the build settings).
#include "importers/block_readers.hpp"
#include "importers/block_util.hpp"
#include "util/strings.hpp"

namespace gpucheck {

namespace {

Opens opens(const PasteText& p, std::size_t i) { return p.trimmed(i) == "PyTorch built with:" ? Opens::surely : Opens::no; }

bool continues(const PasteText& p, std::size_t, std::size_t i) {
  const auto t = p.trimmed(i);
  return starts_with(t, "- ") || (!t.empty() && p.lines[i].front() == ' ' && !is_prose(t));
}

// "…TORCH_VERSION=2.1.0, USE_CUDA=ON…" -> "2.1.0"
std::string_view setting(std::string_view t, std::string_view name) {
  const std::string key = std::string(name) + "=";
  const auto at = t.find(key);
  if (at == std::string_view::npos) return {};
  auto v = t.substr(at + key.size());
  return trim(v.substr(0, v.find(',')));
}

void read(const PasteText& p, std::size_t first, std::size_t last, BlockFacts& out) {
  auto& env = report_python(out.facts);
  auto& fw = report_framework(env, "torch");
  fw.source = p.at(first);
  for (std::size_t k = first + 1; k <= last; ++k) {
    const auto t = strip_bullet(p.trimmed(k));
    if (starts_with(t, "CUDA Runtime ")) {
      fw.cuda = std::string(first_word(t.substr(13)));
    } else if (starts_with(t, "CuDNN ")) {
      fw.cudnn = std::string(first_word(t.substr(6)));
    } else if (starts_with(t, "HIP Runtime ")) {
      fw.hip = std::string(first_word(t.substr(12)));
    } else if (starts_with(t, "NVCC architecture flags:")) {
      auto& deep = report_deep(env, "torch");
      for (auto part : split(t, ';'))
        if (const auto code = part.find("code="); code != std::string_view::npos) deep.arch_list.emplace_back(trim(part.substr(code + 5)));
    } else if (starts_with(t, "Build settings:")) {
      if (const auto v = setting(t, "TORCH_VERSION"); looks_like_version(v)) {
        const auto parsed = torch_from_version(v, p.at(k));
        fw.version = parsed.version;
        fw.source = p.at(k);
      }
      if (!fw.cuda)
        if (const auto v = setting(t, "CUDA_VERSION"); looks_like_version(v)) fw.cuda = std::string(v);
      if (!fw.cudnn)
        if (const auto v = setting(t, "CUDNN_VERSION"); looks_like_version(v)) fw.cudnn = std::string(v);
    }
  }
  // A build without CUDA or HIP says neither.
  if (fw.version.empty() && !fw.cuda && !fw.hip) env.frameworks.clear();
}

}  // namespace

BlockReader torch_config_reader() { return {"torch.__config__.show()", opens, continues, read}; }

}  // namespace gpucheck
