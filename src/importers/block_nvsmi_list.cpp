// `nvidia-smi -L`: "GPU 0: NVIDIA A100-SXM4-80GB (UUID: GPU-…)" per GPU,
// and an indented "MIG 3g.40gb Device 0: (UUID: MIG-…)" per MIG instance.
// collect_env prints the same lines (it falls back on nvidia-smi -L), so a
// line opens a block only between blocks.
#include "facts/fact_limits.hpp"
#include "importers/block_readers.hpp"
#include "importers/block_util.hpp"
#include "util/strings.hpp"

namespace gpucheck {

namespace {

bool mig_line(std::string_view t) { return starts_with(t, "MIG ") && t.find("(UUID: MIG-") != std::string_view::npos; }

Opens opens(const PasteText& p, std::size_t i) { return listed_gpu(p.trimmed(i)) ? Opens::maybe : Opens::no; }

bool continues(const PasteText& p, std::size_t, std::size_t i) {
  const auto t = p.trimmed(i);
  return listed_gpu(t) || mig_line(t);
}

void read(const PasteText& p, std::size_t first, std::size_t last, BlockFacts& out) {
  NvidiaSmiFacts s;
  s.source = p.span(first, last, "nvidia-smi -L");
  // One GPU past the limit is enough for import_paste to refuse the report.
  for (std::size_t k = first; k <= last && s.gpus.size() <= kMaxGpusPerNode; ++k) {
    const auto t = p.trimmed(k);
    if (auto g = listed_gpu(t)) {
      s.gpus.push_back(smi_gpu(*g));
    } else if (mig_line(t) && !s.gpus.empty()) {
      // MIG instances exist only while MIG mode is on.
      s.gpus.back().mig_mode_current = "Enabled";
    } else if (!t.empty()) {
      out.unread.push_back(k);
    }
  }
  out.facts.nvidia_smi = std::move(s);
}

}  // namespace

BlockReader nvsmi_list_reader() { return {"nvidia-smi -L", opens, continues, read}; }

}  // namespace gpucheck
