// `nvcc --version`: "Cuda compilation tools, release 12.1, V12.1.105" is
// the toolkit of the nvcc first on PATH, the one an extension build uses.
#include "importers/block_readers.hpp"
#include "importers/block_util.hpp"
#include "util/strings.hpp"

namespace gpucheck {

namespace {

constexpr std::string_view kRelease = "Cuda compilation tools, release ";

Opens opens(const PasteText& p, std::size_t i) {
  const auto t = p.trimmed(i);
  return starts_with(t, "nvcc: NVIDIA (R) Cuda compiler driver") || starts_with(t, kRelease) ? Opens::surely : Opens::no;
}

bool continues(const PasteText& p, std::size_t, std::size_t i) {
  const auto t = p.trimmed(i);
  return starts_with(t, "Copyright") || starts_with(t, "Built on") || starts_with(t, kRelease) || starts_with(t, "Build cuda_");
}

void read(const PasteText& p, std::size_t first, std::size_t last, BlockFacts& out) {
  for (std::size_t k = first; k <= last; ++k) {
    const auto t = p.trimmed(k);
    if (!starts_with(t, kRelease)) continue;
    // "release 12.1, V12.1.105": the V number is the exact one.
    auto rest = t.substr(kRelease.size());
    std::string version(trim(rest.substr(0, rest.find(','))));
    if (const auto v = rest.find(", V"); v != std::string_view::npos && looks_like_version(first_word(rest.substr(v + 3))))
      version = std::string(first_word(rest.substr(v + 3)));
    if (!looks_like_version(version)) {
      out.unread.push_back(k);
      continue;
    }
    CudaToolkit tk;
    tk.root = "(from report)";
    tk.kind = "report";
    tk.version = version;
    tk.version_source = p.at(k);
    tk.nvcc = "nvcc (from report)";
    tk.active = true;
    tk.active_because = {"the paste's nvcc --version (the nvcc first on PATH)"};
    out.facts.software.toolkits.push_back(std::move(tk));
  }
}

}  // namespace

BlockReader nvcc_reader() { return {"nvcc --version", opens, continues, read}; }

}  // namespace gpucheck
