// The gate's judgement of what could not be proven (rules/unverified),
// on synthetic facts: which notes make a host unverified, and when not.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "rules/knowledge.hpp"
#include "rules/verdict.hpp"

#include "knowledge_support.hpp"

using namespace gpucheck;

namespace {

Facts with_gpu_on_bus(PciVendor vendor = PciVendor::nvidia) {
  Facts f;
  PciDevice d;
  d.address = "0000:18:00.0";
  d.vendor = vendor;
  d.kind = PciKind::gpu;
  d.vendor_id = vendor == PciVendor::nvidia ? "10de" : "1002";
  d.device_id = "2330";
  d.driver = vendor == PciVendor::nvidia ? "nvidia" : "amdgpu";
  f.pci.push_back(d);
  if (vendor == PciVendor::nvidia) {
    f.nvidia_driver.kernel_module_loaded = true;
    f.nvidia_driver.kernel_module.version = "550.90.07";
    f.nvidia_driver.libcuda.path = "/usr/lib/x86_64-linux-gnu/libcuda.so.1";
    f.nvidia_driver.libcuda.version = "550.90.07";
  }
  return f;
}

std::vector<std::string> unverified_rules(const Facts& f, const LaunchRequirements& req = {}) {
  std::vector<std::string> out;
  for (auto& finding : judge(f, gpucheck::test::builtin_knowledge(), req, std::nullopt).findings)
    if (finding.category == "unverified") out.push_back(finding.rule);
  return out;
}

Note note(std::string subject, std::string item, Reason r, std::string detail = "synthetic") {
  return Note{std::move(subject), std::move(item), Problem{r, "where", std::move(detail)}};
}

}  // namespace

TEST_CASE("a hung, crashed or failed driver voice on a GPU host is unverified", "[rules][unverified]") {
  auto f = with_gpu_on_bus();
  f.notes.push_back(note("nvidia_smi", "nvidia-smi -q -x", Reason::timed_out, "killed after 3000 ms"));
  f.notes.push_back(note("cuda_driver_api", "CUDA driver", Reason::failed, "the isolated call died by signal 11"));
  const auto v = judge(f, gpucheck::test::builtin_knowledge(), {}, std::nullopt);
  std::vector<std::string> rules;
  for (auto& x : v.findings)
    if (x.category == "unverified") {
      rules.push_back(x.rule);
      CHECK(x.severity == Severity::error);
      CHECK_FALSE(x.evidence.empty());
    }
  CHECK(rules == std::vector<std::string>{"unverified-nvidia_smi", "unverified-cuda_driver_api"});
  CHECK(v.fails(false));
  auto smi = std::find_if(v.findings.begin(), v.findings.end(), [](const Finding& x) { return x.rule == "unverified-nvidia_smi"; });
  REQUIRE(smi != v.findings.end());
  CHECK_THAT(smi->message, Catch::Contains("killed after 3000 ms") && Catch::Contains("clocks"));
}

TEST_CASE("what is not unverified: no GPU, an absent tool, a fact merely unreadable", "[rules][unverified]") {
  Facts none;
  none.notes.push_back(note("nvidia_smi", "nvidia-smi -q -x", Reason::timed_out));
  CHECK(unverified_rules(none).empty());
  // --gpus says the node should have GPUs even when the bus shows none.
  LaunchRequirements eight;
  eight.gpus = 8;
  CHECK(unverified_rules(none, eight) == std::vector<std::string>{"unverified-nvidia_smi"});

  auto f = with_gpu_on_bus();
  f.notes.push_back(note("nvidia_smi", "nvidia-smi -q -x", Reason::absent, "not installed"));
  f.notes.push_back(note("pci", "device names", Reason::malformed));
  f.notes.push_back(note("cuda_driver_api", "cuInit", Reason::failed, "cuInit returned 100"));  // the matrix's cuda-init-failed says it
  CHECK(unverified_rules(f).empty());
}

TEST_CASE("any probe's timeout counts, and an AMD GPU's ROCm SMI is a driver voice", "[rules][unverified]") {
  auto f = with_gpu_on_bus(PciVendor::amd);
  f.notes.push_back(note("rocm", "ROCm SMI", Reason::failed, "the isolated call died by signal 6"));
  f.notes.push_back(note("python", "sys.path of /usr/bin/python3", Reason::timed_out));
  CHECK(unverified_rules(f) == std::vector<std::string>{"unverified-rocm", "unverified-python"});
}

TEST_CASE("a driver already found missing explains why its voices failed", "[rules][unverified]") {
  auto f = with_gpu_on_bus();
  f.pci[0].driver = std::nullopt;  // the matrix's gpu-without-driver fires
  f.notes.push_back(note("nvidia_smi", "nvidia-smi -q -x", Reason::failed, "exit code 9: NVIDIA-SMI has failed"));
  CHECK(unverified_rules(f).empty());
  // A hang is named all the same.
  f.notes.push_back(note("cuda_driver_api", "CUDA driver", Reason::timed_out));
  CHECK(unverified_rules(f) == std::vector<std::string>{"unverified-cuda_driver_api"});
}

TEST_CASE("kernel checks asked for and not run, or a required precision never tested", "[rules][unverified][kernels]") {
  Facts f;
  f.kernels = KernelFacts{};
  f.kernels->error = "no libcuda.so.1 to load";
  CHECK(unverified_rules(f) == std::vector<std::string>{"unverified-kernels"});

  f.kernels->error.reset();
  GpuKernelFacts g;
  KernelCheck bf16;
  bf16.precision = "bf16";
  bf16.status = StepStatus::passed;
  bf16.expected = true;
  KernelCheck fp8;
  fp8.precision = "fp8_e4m3";
  fp8.status = StepStatus::jit_failed;
  fp8.expected = true;
  g.checks = {bf16, fp8};
  f.kernels->gpus.push_back(g);
  LaunchRequirements req;
  req.precisions = {"bf16", "fp8"};
  CHECK(unverified_rules(f, req) == std::vector<std::string>{"unverified-kernels-fp8"});
  req.precisions = {"bf16"};
  CHECK(unverified_rules(f, req).empty());
}
