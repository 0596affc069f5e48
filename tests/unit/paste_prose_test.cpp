// What a paste says outside any report block (issue 32): GPU names and
// releases in prose, Markdown quotes, one-line fences, ggml's device list,
// a rocminfo excerpt. Each snippet is synthetic, written in the forms the
// real pastes of tests/data/pastes-real/ show.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>

#include "importers/prose_facts.hpp"
#include "knowledge_support.hpp"
#include "matrix/lookup.hpp"
#include "paste_support.hpp"
#include "test_support.hpp"

using namespace gpucheck;
using gpucheck::test::paste;

namespace {

const FrameworkBuild* framework(const Facts& f, const std::string& name) {
  for (auto& e : f.software.python)
    for (auto& fw : e.frameworks)
      if (fw.name == name) return &fw;
  return nullptr;
}

std::optional<std::string> cuda_name(const Facts& f) {
  if (!f.cuda || f.cuda->devices.empty()) return std::nullopt;
  return f.cuda->devices.front().name;
}

}  // namespace

TEST_CASE("prose: a GPU named as people write it", "[importers][paste][prose]") {
  CHECK(gpu_named_in_prose("I am using an RTX 3090") == "RTX 3090");
  CHECK(gpu_named_in_prose("GPU: Zotac RTX 5060 Ti 16GB") == "RTX 5060 Ti");
  CHECK(gpu_named_in_prose("I have a gtx 950M (maybe it's too old)") == "GTX 950M");
  CHECK(gpu_named_in_prose("my rtx3090ti runs hot") == "RTX 3090 Ti");
  CHECK(gpu_named_in_prose("an RTX 4090 time ago") == "RTX 4090");
  CHECK(gpu_named_in_prose("RTX 4080 SUPER, 16GB") == "RTX 4080 SUPER");
  CHECK(gpu_named_in_prose("This avoids them failing on e.g. A100 GPUs with") == "A100");
  CHECK(gpu_named_in_prose("NVIDIA : A100 (80G) .") == "A100");
  CHECK(gpu_named_in_prose("Tesla V100, cuda11.4") == "V100");
  // a bare model number needs a GPU word beside it; other numbers are no GPU
  CHECK_FALSE(gpu_named_in_prose("see section A100 of the manual"));
  CHECK_FALSE(gpu_named_in_prose("the T4 route is closed"));
  CHECK_FALSE(gpu_named_in_prose("RTX IO and GTX are brands"));
  CHECK_FALSE(gpu_named_in_prose("RTX 30901 is no card"));
  // a line longer than prose is no prose: a dump is left to its reader
  CHECK_FALSE(gpu_named_in_prose("I am using an RTX 3090 " + std::string(2000, 'x')));
  CHECK_FALSE(ollama_version_in_prose("ollama v0.1.19 " + std::string(2000, 'x')));
  CHECK_FALSE(rocm_version_in_prose("ROCm 6.1.2 " + std::string(2000, 'x')));
}

TEST_CASE("prose: ollama's and ROCm's releases", "[importers][paste][prose]") {
  CHECK(ollama_version_in_prose("I've updated ollama to v0.1.19, but") == "0.1.19");
  CHECK(ollama_version_in_prose("Ollama version 0.5.4") == "0.5.4");
  CHECK_FALSE(ollama_version_in_prose("ollama crashes after a while, version unknown"));
  CHECK(rocm_version_in_prose("compiling rocBLAS with tag `rocm-6.0.2`, as downloaded") == "6.0.2");
  CHECK(rocm_version_in_prose("I installed ROCm 6.1.2 yesterday") == "6.1.2");
  // a wheel's tag and a URL are not the ROCm installed
  CHECK_FALSE(rocm_version_in_prose("torch 2.3.0+rocm6.0 from the nightly index"));
  CHECK_FALSE(rocm_version_in_prose("see https://rocm.docs.amd.com/en/latest"));
}

TEST_CASE("prose: a GPU in prose counts only where no block shows one", "[importers][paste][prose]") {
  const auto alone = paste("I am using an RTX 5090\nCUDA error: no kernel image is available for execution on the device\n");
  CHECK(cuda_name(alone) == "RTX 5090");
  // the matrix's models named RTX 5090 all have compute capability 12.0
  CHECK(family_compute_capability(gpucheck::test::builtin_knowledge().matrix, "RTX 5090") == Version::parse("12.0"));
  CHECK_FALSE(family_compute_capability(gpucheck::test::builtin_knowledge().matrix, "RTX 9999"));
  const auto shown = paste(
      "I am using an RTX 3090\n"
      "NVIDIA GeForce RTX 5090 with CUDA capability sm_120 is not compatible with the current PyTorch installation.\n");
  CHECK(cuda_name(shown) == "NVIDIA GeForce RTX 5090");
  CHECK(shown.cuda->devices.size() == 1);
}

TEST_CASE("a reply's Markdown quote is read as the text it quotes", "[importers][paste][prose]") {
  const auto f = paste("> System Info:\n>\n> PyTorch: 2.5.1+cu121\n> > nested: still read\n");
  const auto* torch = framework(f, "torch");
  REQUIRE(torch);
  CHECK(torch->version == "2.5.1+cu121");
  CHECK(torch->cuda == "12.1");
  // Python's prompt is no quote: ">>> import torch" stays as written
  const auto repl = paste(">>> import torch\n>>> torch.__version__\n'2.1.0+cu121'\n");
  CHECK(framework(repl, "torch"));
}

TEST_CASE("an error inside a one-line fence is read", "[importers][paste][prose]") {
  const auto f = paste("```ImportError: /x/flash_attn_2_cuda.so: undefined symbol: _ZN2at4_ops9_pad_enum4callE```\n");
  REQUIRE(f.report);
  CHECK(std::any_of(f.report->stated.begin(), f.report->stated.end(), [](const ReportStatement& s) { return s.value == "extension-built-for-other-torch"; }));
}

TEST_CASE("ggml's device list gives each GPU and its capability, and ollama's log names ollama", "[importers][paste][prose]") {
  const auto f = paste(
      "Jan  1 20:22:43 host ollama[911]: ggml_init_cublas: found 2 CUDA devices:\n"
      "Jan  1 20:22:43 host ollama[911]:   Device 0: Tesla K80, compute capability 3.7\n"
      "Jan  1 20:22:43 host ollama[911]:   Device 1: NVIDIA GeForce RTX 3090, compute capability 8.6, VMM: yes\n");
  REQUIRE(f.cuda);
  REQUIRE(f.cuda->devices.size() == 2);
  CHECK(f.cuda->devices[0].name == "Tesla K80");
  CHECK(f.cuda->devices[0].compute_capability == "3.7");
  CHECK(f.cuda->devices[1].compute_capability == "8.6");
  CHECK(framework(f, "ollama"));
  // a device number past any machine's, or a capability that is no version,
  // gives no capability (the K80 named there is still the prose's GPU)
  const auto bad = paste(
      "ggml_cuda_init: found 2 CUDA devices:\n"
      "  Device 4294967296: Tesla K80, compute capability 3.7\n"
      "  Device 1: Tesla K80, compute capability x.y\n");
  REQUIRE(bad.cuda);
  for (auto& d : bad.cuda->devices) CHECK_FALSE(d.compute_capability);
  // llama.cpp's own log names no ollama
  const auto l = paste("ggml_cuda_init: found 1 CUDA devices:\n  Device 0: NVIDIA GeForce RTX 4090, compute capability 8.9, VMM: yes\n");
  CHECK_FALSE(framework(l, "ollama"));
}

TEST_CASE("a rocminfo excerpt of one agent is read, and a library's refusal names the GPU", "[importers][paste][prose]") {
  const auto f = paste("*******\nAgent 2\n*******\n  Name:                    gfx1036\n  Marketing Name:          AMD Radeon Graphics\n");
  REQUIRE(f.software.rocm.gpu_nodes.size() == 1);
  CHECK(f.software.rocm.gpu_nodes[0].gfx_target == "gfx1036");
  const auto r = paste("rocBLAS error: Cannot read C:\\ROCm\\6.1\\bin\\/rocblas/library/TensileLibrary.dat: No such file or directory for GPU arch : gfx1036\n");
  REQUIRE(r.software.rocm.gpu_nodes.size() == 1);
  CHECK(r.software.rocm.gpu_nodes[0].gfx_target == "gfx1036");
}
