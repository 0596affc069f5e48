// The typed vocabularies: each word spelt once, read back to the same value,
// anything else refused; the precision table agrees with the kernels.
#include <catch2/catch.hpp>
#include <set>

#include "facts/kernel_vocabulary.hpp"
#include "facts/pci_vocabulary.hpp"
#include "kernels/catalog.hpp"
#include "matrix/precisions.hpp"
#include "rules/scope.hpp"

using namespace gpucheck;

TEST_CASE("PCI vendors and kinds read back as written, other words are not read", "[vocabulary]") {
  for (auto v : {PciVendor::nvidia, PciVendor::amd}) CHECK(pci_vendor_named(to_string(v)) == v);
  for (auto k : {PciKind::gpu, PciKind::nvswitch}) CHECK(pci_kind_named(to_string(k)) == k);
  CHECK(pci_vendor_of_id("10de") == PciVendor::nvidia);
  CHECK(pci_vendor_of_id("1002") == PciVendor::amd);
  CHECK_FALSE(pci_vendor_of_id("8086"));  // Intel: not a vendor gpucheck reads
  CHECK_FALSE(pci_vendor_named("NVIDIA"));
  CHECK_FALSE(pci_kind_named(""));
  CHECK(pci_vendor_names() == "nvidia, amd");
}

TEST_CASE("kernel status words read back as written, other words are not read", "[vocabulary][kernels]") {
  using S = StepStatus;
  std::set<std::string> spelt;
  for (auto s : {S::passed, S::failed, S::ran, S::jit_failed, S::launch_failed, S::timed_out, S::crashed, S::context_error,
                 S::not_expected, S::not_implemented, S::skipped, S::not_run}) {
    CHECK(step_status_named(to_string(s)) == s);
    spelt.insert(std::string(to_string(s)));
  }
  CHECK(spelt.size() == 12);  // no two share a spelling
  for (auto g : {GpuRunStatus::ran, GpuRunStatus::waived, GpuRunStatus::failed}) CHECK(gpu_run_status_named(to_string(g)) == g);
  CHECK_FALSE(step_status_named("Passed"));
  CHECK_FALSE(step_status_named("mismatch"));
  CHECK_FALSE(gpu_run_status_named("passed"));
  CHECK(gpu_run_status_names() == "ran, waived, failed");
}

TEST_CASE("scopes read back as written, and a subject sees the facts around it", "[vocabulary][rules]") {
  for (auto s : {Scope::host, Scope::gpu, Scope::env, Scope::framework, Scope::framework_gpu})
    CHECK(scope_named(to_string(s)) == s);
  CHECK_FALSE(scope_named("GPU"));
  CHECK(scope_names() == "\"host\", \"gpu\", \"env\", \"framework\" or \"framework_gpu\"");
  CHECK(scope_includes(Scope::gpu, Scope::host));
  CHECK(scope_includes(Scope::framework_gpu, Scope::gpu));
  CHECK(scope_includes(Scope::framework, Scope::env));
  CHECK_FALSE(scope_includes(Scope::host, Scope::gpu));
  CHECK_FALSE(scope_includes(Scope::gpu, Scope::framework));
}

TEST_CASE("every precision a kernel checks is in the table, and each has the matrix's name", "[vocabulary][kernels]") {
  const auto& checked = checked_precisions();
  CHECK(std::set<std::string>(checked.begin(), checked.end()).size() == checked.size());
  std::set<std::string> with_kernel;
  for (const auto& k : kernels::all_kernels())
    if (k.precision != "copy") with_kernel.insert(k.precision);
  CHECK(with_kernel == std::set<std::string>(checked.begin(), checked.end()));
  CHECK(matrix_precision_of("fp8_e5m2") == "fp8");
  CHECK(matrix_precision_of("fp6_e2m3") == "fp6");
  CHECK(matrix_precision_of("bf16") == "bf16");
  CHECK_FALSE(matrix_precision_of("fp8"));  // a matrix name, not a check's
  CHECK(matrix_precisions() ==
        std::vector<std::string>{"fp64", "fp32", "tf32", "fp16", "bf16", "int8", "fp8", "fp6", "fp4", "int4"});
  CHECK(requirable_precisions() ==
        std::vector<std::string>{"fp64", "fp32", "tf32", "fp16", "bf16", "int8", "fp8", "fp6", "fp4"});
}
