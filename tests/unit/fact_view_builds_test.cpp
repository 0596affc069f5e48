// The facts a framework gets on one GPU: whether its code runs there, and the
// matrix builds that would (named in the arch rules' fixes), on real
// collect_env reports (tests/data/reports/SOURCES.md) and the embedded matrix.
#include <catch2/catch.hpp>

#include "importers/import_report.hpp"
#include "matrix/matrix_load.hpp"
#include "rules/fact_view.hpp"
#include "test_support.hpp"

using namespace gpucheck;

namespace {

const Matrix& embedded() {
  static const Matrix m = [] {
    auto r = load_embedded_matrix();
    if (!r) throw std::runtime_error(r.problem().detail);
    return std::move(r).value();
  }();
  return m;
}

// The framework_gpu subject of a report (its one torch on its first GPU).
FactMap torch_on_gpu(const std::string& report) {
  auto r = import_report(test::data("reports/collect_env/" + report), report);
  REQUIRE(r);
  for (auto& s : build_subjects(r.value().facts, embedded()))
    if (s.scope == Scope::framework_gpu) return s.facts;
  FAIL("no framework_gpu subject in " << report);
  return {};
}

// The same report with its torch lines edited (synthetic: another install on
// the same machine), imported.
FactMap edited_torch_on_gpu(const std::string& report, const std::string& version, const std::string& cuda) {
  std::string text = test::data("reports/collect_env/" + report);
  const auto swap = [&](const std::string& from, const std::string& to) {
    const auto at = text.find(from);
    REQUIRE(at != std::string::npos);
    text.replace(at, from.size(), to);
  };
  swap("PyTorch version: 2.6.0+cu126", "PyTorch version: " + version);
  swap("CUDA used to build PyTorch: 12.6", "CUDA used to build PyTorch: " + cuda);
  // The report's warning states 2.6.0's own arch list, which a paste's
  // reader rightly takes over the matrix's: not said of the edited build.
  swap("The current PyTorch install supports CUDA capabilities sm_50 sm_60 sm_70 sm_75 sm_80 sm_86 sm_90.", "");
  auto r = import_report(text, report);
  REQUIRE(r);
  for (auto& s : build_subjects(r.value().facts, embedded()))
    if (s.scope == Scope::framework_gpu) return s.facts;
  FAIL("no framework_gpu subject in the edited " << report);
  return {};
}

}  // namespace

TEST_CASE("torch from PyPI (no local tag) is judged by the arch list of PyPI's default build", "[rules][facts]") {
  // RTX 5090 D (12.0), the report's own; torch 2.15.0 as pip installs it from
  // PyPI: version "2.15.0", CUDA 13.2. The matrix's torch 2.15 cu132 entry is
  // that wheel, its arch list read from libtorch_cuda.so (SASS up to sm_120).
  const auto f = edited_torch_on_gpu("pt150733-rtx5090d-torch2.6.0-partial.txt", "2.15.0", "13.2");
  CHECK(f.at("framework.known").text == "true");
  CHECK_THAT(f.at("framework.arch_list").source, Catch::StartsWith("matrix: torch 2.15 cu132 (https://"));
  CHECK(f.at("framework.arch_max").text == "12.0");
  CHECK(f.at("build.has_sass").text == "true");
  // A conda or source build of 2.15.0 for another CUDA is not that wheel: no arch list to judge by.
  const auto other = edited_torch_on_gpu("pt150733-rtx5090d-torch2.6.0-partial.txt", "2.15.0", "12.8");
  CHECK(other.at("framework.known").text == "false");
  CHECK(other.count("framework.arch_list") == 0);
  CHECK(other.count("build.runs_on_gpu") == 0);
}

TEST_CASE("a GPU newer than the build: the oldest build of the matrix that runs on it", "[rules][facts]") {
  // RTX 5090 D (12.0) with torch 2.6.0+cu126; the first torch with sm_120 is 2.7 for CUDA 12.8.
  const auto f = torch_on_gpu("pt150733-rtx5090d-torch2.6.0-partial.txt");
  CHECK(f.at("build.runs_on_gpu").text == "false");
  CHECK(f.at("build.first_for_gpu").text == "torch 2.7 cu128");
  CHECK_THAT(f.at("build.first_for_gpu").source, Catch::StartsWith("matrix: torch 2.7 cu128 (https://"));
  // The GPU's name is the report's, and says so.
  CHECK_THAT(f.at("gpu.name").source, Catch::StartsWith("pt150733-rtx5090d-torch2.6.0-partial.txt:"));
}

TEST_CASE("a GPU no build of the matrix runs on", "[rules][facts]") {
  // GeForce 210, compute capability 1.2.
  const auto f = torch_on_gpu("pt31876-geforce210-torch1.2.0.txt");
  CHECK(f.at("build.first_for_gpu").text == "none");
  CHECK(f.at("build.last_for_gpu").text == "none");
}

TEST_CASE("a GPU the build runs on: the newest build that still does is a newer one", "[rules][facts]") {
  // A100 (8.0) with torch 1.8.1+cu102, which has no 8.0: first 1.7.0 cu110; the newest is later than 1.8.
  const auto f = torch_on_gpu("pt57922-a100-mig-torch1.8.1-partial.txt");
  CHECK(f.at("build.runs_on_gpu").text == "false");
  CHECK(f.at("build.first_for_gpu").text == "torch 1.7.0 cu110");
  CHECK_THAT(f.at("build.last_for_gpu").text, Catch::StartsWith("torch 2."));
}

TEST_CASE("a ROCm build and an AMD GPU: the gfx target in the build's list, and the builds that carry it", "[rules][facts]") {
  // Hand-made facts (synthetic): one KFD node reporting gfx942 (MI300X) and
  // torch 2.1.2+rocm5.6, whose wheels PyTorch built without gfx942.
  Facts f;
  KfdNode n;
  n.node = 2;
  n.gfx_target = "gfx942";
  n.source = "/sys/class/kfd/kfd/topology/nodes/2/properties";
  f.software.rocm.gpu_nodes.push_back(n);
  PythonEnv e;
  e.interpreter = "/opt/venv/bin/python3";
  FrameworkBuild t;
  t.name = "torch";
  t.version = "2.1.2+rocm5.6";
  t.local_tag = "rocm5.6";
  t.hip = "5.6.31061";
  t.source = "/opt/venv/lib/python3.10/site-packages/torch/version.py";
  e.frameworks.push_back(t);
  f.software.python.push_back(e);
  const FactMap* on_gpu = nullptr;
  const auto subjects = build_subjects(f, embedded());
  for (auto& s : subjects)
    if (s.scope == Scope::framework_gpu) on_gpu = &s.facts;
  REQUIRE(on_gpu);
  CHECK(on_gpu->at("build.has_gfx_target").text == "false");
  CHECK_THAT(on_gpu->at("framework.gfx_targets").source, Catch::Contains("pytorch/builder"));
  CHECK(on_gpu->at("build.first_for_gpu").text == "torch 2.3 rocm6.0");  // gfx942 from ROCm 6.0 on
  CHECK_FALSE(on_gpu->count("build.runs_on_gpu"));  // a CUDA question: unknown here
}

TEST_CASE("kernel rates become percentage facts of the whole GPU, none for a MIG instance", "[rules][facts]") {
  // Synthetic kernels section (tests/data/kernels/README.md): GPU 0 at 21.4 of
  // 67 TFLOP/s FP32, 1210 of 3350 GB/s copy, 22.1 and 24.3 of 63.02 GB/s host.
  const std::string path = test::data("kernels/synthetic-h100-slow-rates.json");
  auto r = import_report(path, path);
  REQUIRE(r);
  const auto gpu0 = [](Facts facts) {
    for (auto& s : build_subjects(facts, embedded()))
      if (s.scope == Scope::gpu && s.facts.at("gpu.address").text.find("18:00.0") != std::string::npos) return s.facts;
    FAIL("no subject for GPU 0000:18:00.0");
    return FactMap{};
  };
  const FactMap whole = gpu0(r.value().facts);
  CHECK(whole.at("gpu.fp32_rate_percent").text == "31.9");
  CHECK(whole.at("gpu.copy_bandwidth_percent").text == "36.1");
  CHECK(whole.at("gpu.host_transfer_percent").text == "35.1");  // the slower direction
  CHECK(whole.at("gpu.host_transfer_percent").source.find("host_to_device") != std::string::npos);

  Facts mig = r.value().facts;
  REQUIRE(mig.kernels);
  mig.kernels->gpus[0].mig = true;  // the same figures from a slice of the GPU mean nothing
  const FactMap slice = gpu0(mig);
  CHECK(slice.count("gpu.kernel_checks_passed") == 1);
  for (const char* f : {"gpu.fp32_rate_percent", "gpu.copy_bandwidth_percent", "gpu.host_transfer_percent"})
    CHECK(slice.count(f) == 0);
}
