// `recommend --pip` on the fixture hosts: each answer pinned with its reason
// (the driver's floor, the GPUs' code), and the builds it leaves out.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "gpucheck_run.hpp"
#include "test_support.hpp"

using nlohmann::json;
using gpucheck::test::run_gpucheck;

namespace {

json pip_answer(const std::string& fixture) {
  const auto r = run_gpucheck({"--root", gpucheck::test::source_path("tests/fixtures/hosts/" + fixture), "recommend", "--pip", "--json"});
  REQUIRE(r.exit_code == 0);
  const json doc = json::parse(r.out);
  REQUIRE(doc["schema"] == "gpucheck.recommend/1");
  REQUIRE(doc.contains("pip"));
  return doc["pip"];
}

json framework(const json& pip, const std::string& name) {
  for (const auto& f : pip["frameworks"])
    if (f["framework"] == name) return f;
  FAIL("no " << name << " in the answer");
  return {};
}

std::string text(const json& j) { return j.get<std::string>(); }

}  // namespace

TEST_CASE("recommend --pip on the RTX 5090 (driver 570): the newest CUDA 12.8 builds with sm_120 code", "[cli][recommend]") {
  const json pip = pip_answer("rtx5090-desktop");
  CHECK(pip["driver"] == "570.124.06");
  const json torch = framework(pip, "torch");
  REQUIRE(!torch["builds"].empty());
  const json& first = torch["builds"][0];
  CHECK(first["build"] == "torch 2.11 cu128");
  CHECK(first["requirement"] == "torch==2.11.*");
  CHECK(first["index_url"] == "https://download.pytorch.org/whl/cu128");
  CHECK(first["command"] == "pip install 'torch==2.11.*' --index-url https://download.pytorch.org/whl/cu128");
  CHECK_THAT(text(first["why"]), Catch::Contains("runs CUDA 12.8 (needs 570.26)") && Catch::Contains("compute capability 12.0"));
  // Newer: CUDA 13 builds need a newer driver; older: the same release for CUDA 12.6 has no sm_120.
  CHECK(torch["newer_excluded"][0]["build"] == "torch 2.15 cu132");
  CHECK_THAT(text(torch["newer_excluded"][0]["reason"]), Catch::Contains("needs driver 595.45.04 or newer (this driver: 570.124.06)"));
  CHECK(torch["older_excluded"][0]["build"] == "torch 2.11 cu126");
  CHECK_THAT(text(torch["older_excluded"][0]["reason"]), Catch::StartsWith("no code for compute capability 12.0"));
  // vLLM from PyPI: 0.34 is CUDA 13.0; 0.9 has no Blackwell consumer code.
  const json vllm = framework(pip, "vllm");
  CHECK(vllm["builds"][0]["requirement"] == "vllm==0.11.0");
  CHECK(vllm["builds"][0]["index_url"].is_null());
  CHECK(vllm["newer_excluded"][0]["build"] == "vllm 0.34 cu130");
  // TensorFlow 2.21's wheel has SASS up to sm_90 and PTX for 9.0: it runs on 12.0 through the driver's JIT, and says so.
  const json tf = framework(pip, "tensorflow");
  CHECK(tf["builds"][0]["requirement"] == "tensorflow[and-cuda]==2.21.*");
  CHECK_THAT(text(tf["builds"][0]["why"]), Catch::Contains("12.0 (PTX only: compiled by the driver at first use)"));
}

TEST_CASE("recommend --pip on the H100s (driver 565): CUDA 12.6 and older", "[cli][recommend]") {
  const json pip = pip_answer("h100-sxm-8gpu");
  const json torch = framework(pip, "torch");
  CHECK(torch["builds"][0]["build"] == "torch 2.14 cu126");
  CHECK_THAT(text(torch["builds"][0]["why"]), Catch::Contains("runs CUDA 12.6 (needs 560.28.03)") && Catch::Contains("9.0"));
  CHECK(torch["newer_excluded"][0]["build"] == "torch 2.15 cu132");
  const json vllm = framework(pip, "vllm");
  CHECK(vllm["builds"][0]["build"] == "vllm 0.8 cu124");
  CHECK(vllm["builds"][0]["command"] == "pip install 'vllm==0.8.*'");
  CHECK_THAT(text(vllm["newer_excluded"][0]["reason"]), Catch::Contains("CUDA 13.0 needs driver 580.65.06"));
  const json jax = framework(pip, "jax");
  CHECK(jax["builds"][0]["requirement"] == "jax[cuda12]==0.5.*");
}

TEST_CASE("recommend --pip on the MI300Xs: ROCm builds that carry gfx942", "[cli][recommend]") {
  const json pip = pip_answer("rocm6-mi300x");
  CHECK(pip["gpus"] == "8 × AMD Instinct MI300X (gfx942)");
  const json torch = framework(pip, "torch");
  CHECK(torch["builds"][0]["build"] == "torch 2.11 rocm7.2");
  CHECK(torch["builds"][0]["index_url"] == "https://download.pytorch.org/whl/rocm7.2");
  CHECK(torch["builds"][0]["why"] == "carries code for gfx942");
  // Newer ROCm builds whose gfx targets the matrix does not list are shown, not promised.
  CHECK(torch["newer_excluded"][0]["build"] == "torch 2.14 rocm7.14");
  CHECK(torch["newer_excluded"][0]["unconfirmed"] == true);
  CHECK(framework(pip, "vllm")["builds_known"] == 0);
}

TEST_CASE("recommend --pip without a GPU says why it names nothing", "[cli][recommend]") {
  const json pip = pip_answer("cpu-only");
  CHECK_THAT(text(pip["why_none"]), Catch::StartsWith("no NVIDIA or AMD GPU was found"));
  CHECK(pip["frameworks"].empty());
  const auto t = run_gpucheck({"--root", gpucheck::test::source_path("tests/fixtures/hosts/cpu-only"), "recommend", "--pip"});
  CHECK(t.exit_code == 0);
  CHECK_THAT(t.out, Catch::Contains("no NVIDIA or AMD GPU was found"));
}
