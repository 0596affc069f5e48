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
  CHECK(rules == std::vector<std::string>{"unverified-cuda_driver_api", "unverified-nvidia_smi"});
  CHECK(v.fails(false));
  auto smi = std::find_if(v.findings.begin(), v.findings.end(), [](const Finding& x) { return x.rule == "unverified-nvidia_smi"; });
  REQUIRE(smi != v.findings.end());
  CHECK_THAT(smi->message, Catch::Contains("killed after 3000 ms") && Catch::Contains("clocks"));
}

TEST_CASE("what is not unverified: no GPU, a fact merely unreadable, nvidia-smi's facts from NVML", "[rules][unverified]") {
  Facts none;
  none.notes.push_back(note("python", "sys.path of /usr/bin/python3", Reason::timed_out));
  none.notes.push_back(note("nvidia_smi", "nvidia-smi -q -x", Reason::absent, "not installed"));
  CHECK(unverified_rules(none).empty());
  // Asked for GPUs where no source shows one: require-gpu says so, not unverified.
  LaunchRequirements eight;
  eight.gpus = 8;
  CHECK(unverified_rules(none, eight).empty());
  const auto v = judge(none, gpucheck::test::builtin_knowledge(), eight, std::nullopt);
  CHECK(std::any_of(v.findings.begin(), v.findings.end(), [](const Finding& x) { return x.rule == "require-gpu"; }));

  auto f = with_gpu_on_bus();
  f.notes.push_back(note("nvidia_smi", "nvidia-smi -q -x", Reason::absent, "not installed"));
  f.nvidia_smi = NvidiaSmiFacts{};  // NVML answered in its place
  f.nvidia_smi->source = "NVML (/usr/lib/x86_64-linux-gnu/libnvidia-ml.so.1)";
  f.notes.push_back(note("pci", "device names", Reason::malformed));
  f.notes.push_back(note("cuda_driver_api", "cuInit", Reason::failed, "cuInit returned 100"));  // the matrix judges cuInit's codes
  CHECK(unverified_rules(f).empty());
}

TEST_CASE("a GPU host by any source's word: without /sys, a hang is still unverified", "[rules][unverified]") {
  // WSL2, a sandboxed container, a snapshot without sys/: no PCI tree.
  Facts f;
  f.nvidia_driver.kernel_module_loaded = true;
  f.notes.push_back(note("cuda_driver_api", "CUDA driver", Reason::timed_out, "killed after 10000 ms"));
  CHECK(unverified_rules(f) == std::vector<std::string>{"unverified-cuda_driver_api"});
  Facts dev;
  dev.nvidia_driver.device_nodes = {"/dev/nvidiactl", "/dev/nvidia0"};
  dev.notes.push_back(note("nvidia_smi", "nvidia-smi -q -x", Reason::failed, "exit code 15"));
  dev.notes.push_back(note("nvml", "NVML", Reason::failed, "nvmlInit_v2 returned 999"));
  CHECK(unverified_rules(dev) == std::vector<std::string>{"unverified-nvidia_smi"});
  // A recorded command that died by a signal is a failure, its exit code aside (the probe's note says so).
  Facts lib;
  lib.nvidia_driver.libcuda.path = "/usr/lib/wsl/lib/libcuda.so.1";
  lib.notes.push_back(note("cuda_driver_api", "device count", Reason::failed, "cuDeviceGetCount returned CUDA_ERROR_UNKNOWN"));
  lib.nvidia_smi = NvidiaSmiFacts{};
  CHECK(unverified_rules(lib) == std::vector<std::string>{"unverified-cuda_driver_api"});
}

TEST_CASE("check --gpus counts what a job can use, and a count that failed is unverified", "[rules][unverified]") {
  auto f = with_gpu_on_bus();
  f.nvidia_smi = NvidiaSmiFacts{};
  f.cuda = CudaDriverApiFacts{};
  f.cuda->init_code = 0;  // cuDeviceGetCount failed: no count, a note
  f.notes.push_back(note("cuda_driver_api", "device count", Reason::failed, "cuDeviceGetCount returned CUDA_ERROR_UNKNOWN"));
  LaunchRequirements one;
  one.gpus = 1;
  // The driver API's finding names the count among what it did not read.
  CHECK(unverified_rules(f, one) == std::vector<std::string>{"unverified-cuda_driver_api"});
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
