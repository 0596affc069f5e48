// One GPU unlike its siblings (rules/outliers), on synthetic nvidia-smi
// facts: eight H100s alike but for the one the test spoils.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "host/hosts.hpp"
#include "probe.hpp"
#include "rules/outliers.hpp"
#include "test_support.hpp"

using namespace gpucheck;

namespace {

Facts node(int gpus) {
  Facts f;
  f.nvidia_smi = NvidiaSmiFacts{};
  f.nvidia_smi->source = "nvidia-smi -q -x (synthetic)";
  for (int i = 0; i < gpus; ++i) {
    SmiGpu g;
    char bus[32];
    std::snprintf(bus, sizeof bus, "0000:%02x:00.0", 0x18 + i * 0x10);
    g.pci_bus_id = bus;
    g.product_name = "NVIDIA H100 80GB HBM3";
    g.power_limit_w = 700;
    g.clock_sm_max_mhz = 1980;
    g.clock_mem_max_mhz = 2619;
    g.temperature_c = 30 + i % 3;
    g.pcie_gen_max = 5;
    g.pcie_width_current = 16;
    g.memory_total_mib = 81559;
    g.ecc_aggregate.corrected = i % 2;
    g.remapped_rows_correctable = 0;
    f.nvidia_smi->gpus.push_back(g);
  }
  return f;
}

std::vector<std::string> rules(const std::vector<Finding>& v) {
  std::vector<std::string> out;
  for (auto& f : v) out.push_back(f.rule + " " + f.scope.substr(4, 12));
  return out;
}

}  // namespace

TEST_CASE("eight alike GPUs have no outlier, and each spoiled quantity names its GPU and the median", "[rules][outliers]") {
  CHECK(outlier_findings(node(8)).empty());

  auto f = node(8);
  f.nvidia_smi->gpus[3].power_limit_w = 500;
  f.nvidia_smi->gpus[5].pcie_width_current = 8;
  f.nvidia_smi->gpus[6].temperature_c = 55;
  f.nvidia_smi->gpus[1].ecc_aggregate.corrected = 5000;
  const auto found = outlier_findings(f);
  CHECK(rules(found) == std::vector<std::string>{"gpu-outlier-power_limit 0000:48:00.0", "gpu-outlier-temperature 0000:78:00.0",
                                                 "gpu-outlier-pcie_width 0000:68:00.0", "gpu-outlier-ecc_corrected 0000:28:00.0"});
  REQUIRE_FALSE(found.empty());
  CHECK(found[0].severity == Severity::warning);
  CHECK(found[0].category == "hardware-health");
  CHECK_THAT(found[0].message, Catch::Contains("500 W") && Catch::Contains("median of 700 W") && Catch::Contains("more than 10% off"));
}

TEST_CASE("no outlier among two, across models, or within the margins", "[rules][outliers]") {
  auto two = node(2);
  two.nvidia_smi->gpus[0].power_limit_w = 400;
  CHECK(outlier_findings(two).empty());  // which of two is off cannot be told

  auto mixed = node(6);
  for (int i = 0; i < 3; ++i) {
    mixed.nvidia_smi->gpus[i].product_name = "NVIDIA A100-SXM4-80GB";
    mixed.nvidia_smi->gpus[i].power_limit_w = 400;
  }
  CHECK(outlier_findings(mixed).empty());  // each model against its own

  auto close = node(8);
  close.nvidia_smi->gpus[2].power_limit_w = 650;   // 7% below
  close.nvidia_smi->gpus[4].temperature_c = 44;    // 13 C above
  close.nvidia_smi->gpus[7].ecc_aggregate.corrected = 90;
  CHECK(outlier_findings(close).empty());
}

TEST_CASE("a kernel rate far below its siblings' is an outlier, a faster one is not", "[rules][outliers][kernels]") {
  Facts f;
  f.kernels = KernelFacts{};
  for (int i = 0; i < 4; ++i) {
    GpuKernelFacts g;
    g.name = "NVIDIA H100 80GB HBM3";
    g.pci_bus_id = "0000:0" + std::to_string(i) + ":00.0";
    KernelCheck c;
    c.precision = "bf16";
    c.status = StepStatus::passed;
    c.expected = true;
    c.tflops = i == 1 ? 420.0 : i == 2 ? 700.0 : 600.0;
    g.checks.push_back(c);
    f.kernels->gpus.push_back(g);
  }
  const auto found = outlier_findings(f);
  REQUIRE(found.size() == 1);
  CHECK(found[0].rule == "gpu-outlier-kernel_rate-bf16");
  CHECK_THAT(found[0].scope, Catch::Contains("0000:01:00.0"));
}

TEST_CASE("the real A100 capture: the one GPU with 353 corrected ECC errors stands off its three siblings", "[rules][outliers][fixtures]") {
  auto host = open_host(gpucheck::test::source_path("tests/fixtures/hosts/a100-sxm4-4gpu"));
  REQUIRE(host);
  const auto found = outlier_findings(run_probes(**host, {}));
  REQUIRE(found.size() == 1);
  CHECK(found[0].rule == "gpu-outlier-ecc_corrected");
  CHECK(found[0].scope == "GPU 0000:9e:00.0 (NVIDIA A100-SXM4-80GB)");
  CHECK_THAT(found[0].message, Catch::Contains("353") && Catch::Contains("median of 0"));
}
