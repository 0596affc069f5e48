// What an error message states, as facts (issue 17, "the error is
// evidence"). Each form is a library's own text:
//  torch: "The NVIDIA driver on your system is too old (found version 11040)"
//         (cuDriverGetVersion's number), "NVIDIA GeForce RTX 5090 with CUDA
//         capability sm_120 is not compatible with the current PyTorch
//         installation." and "The current PyTorch install supports CUDA
//         capabilities sm_50 sm_60 …", "Found GPU0 Tesla K80 which is of cuda
//         capability 3.7.", "cuDNN version incompatibility: PyTorch was
//         compiled against (9, 1, 0) but found runtime version (8, 9, 2)"
//  vLLM:  "Your Tesla T4 GPU has compute capability 7.5."
//  TensorFlow: "kernel version 535.104.5 does not match DSO version 545.23.6",
//         "Loaded runtime CuDNN library: 8.1.0 but source was compiled with: 8.6.0"
// A GPU named only in an error is still a GPU of the report (report:GPU<n>),
// so rules judge it.
#include "importers/block_readers.hpp"
#include "importers/block_util.hpp"
#include "importers/error_facts.hpp"
#include "util/strings.hpp"

namespace gpucheck {

namespace {

Opens opens(const PasteText& p, std::size_t i) { return states_error_facts(p.trimmed(i)) ? Opens::surely : Opens::no; }

bool continues(const PasteText& p, std::size_t, std::size_t i) { return states_error_facts(p.trimmed(i)); }

void read(const PasteText& p, std::size_t first, std::size_t last, BlockFacts& out) {
  for (std::size_t k = first; k <= last; ++k) read_error_facts(p.trimmed(k), p.at(k), out);
}

}  // namespace

BlockReader error_reader() { return {"error message", opens, continues, read}; }

}  // namespace gpucheck
