// A paste is judged on what it shows (issue 32): a verdict of pass needs a
// GPU, its driver and a framework in the paste; without them the verdict is
// incomplete (exit 3) and says what to ask the reporter for.
#include <catch2/catch.hpp>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "gpucheck_run.hpp"
#include "test_support.hpp"

using gpucheck::test::run_gpucheck;
using gpucheck::test::TempDir;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

bool has_text(const json& j, const char* key) { return j.is_object() && j.contains(key) && j[key].is_string() && !j[key].get<std::string>().empty(); }

// Read from the facts JSON, not from the verdict's own list: an oracle of
// its own for "the paste shows a GPU, a driver, a framework".
// An NVIDIA GPU needs an NVIDIA driver shown; a ROCm release is no such one.
bool shows_all(const json& f) {
  bool gpu = false, nvidia_gpu = false, nvidia_driver = false, rocm = false, framework = false;
  if (f["nvidia_smi"].is_object()) {
    for (auto& g : f["nvidia_smi"]["gpus"]) gpu = gpu || has_text(g, "product_name");
    nvidia_gpu = !f["nvidia_smi"]["gpus"].empty();
    nvidia_driver = has_text(f["nvidia_smi"], "driver_version") || has_text(f["nvidia_smi"], "cuda_version");
  }
  if (f["cuda_driver_api"].is_object()) {
    for (auto& d : f["cuda_driver_api"]["devices"]) gpu = gpu || has_text(d, "name") || has_text(d, "compute_capability");
    nvidia_gpu = nvidia_gpu || !f["cuda_driver_api"]["devices"].empty();
    nvidia_driver = nvidia_driver || has_text(f["cuda_driver_api"], "driver_version");
  }
  for (auto& d : f["pci"]) {
    gpu = gpu || (d["kind"] == "gpu" && (has_text(d, "name") || has_text(d, "device_id")));
    nvidia_gpu = nvidia_gpu || (d["kind"] == "gpu" && d["vendor"] == "nvidia");
  }
  for (auto& n : f["software"]["rocm"]["gpu_nodes"]) gpu = gpu || has_text(n, "name") || has_text(n, "gfx_target");
  for (auto& i : f["software"]["rocm"]["installs"]) rocm = rocm || has_text(i, "version");
  nvidia_driver = nvidia_driver || has_text(f["nvidia_driver"]["kernel_module"], "version") || has_text(f["nvidia_driver"]["libcuda"], "version");
  rocm = rocm || has_text(f["software"]["rocm"], "amdgpu_module_version");
  const bool driver = nvidia_gpu ? nvidia_driver : nvidia_driver || rocm;
  for (auto& e : f["software"]["python"])
    for (auto& fw : e["frameworks"]) framework = framework || has_text(fw, "version");
  return gpu && driver && framework;
}

}  // namespace

TEST_CASE("no paste passes on what it does not show", "[cli][paste][pastes-real]") {
  int passed = 0, incomplete = 0, failed = 0;
  for (const char* dir : {"tests/data/pastes-real", "tests/data/corpus"}) {
    for (auto& e : fs::recursive_directory_iterator(gpucheck::test::source_path(dir))) {
      const auto name = e.path().filename().string();
      if (!e.is_regular_file() || e.path().extension() != ".txt" || name.find(".source.") != std::string::npos) continue;
      INFO(e.path().string());
      const auto r = run_gpucheck({"check", "--from", e.path().string(), "--json"});
      REQUIRE(gpucheck::test::is_verdict(r.exit_code));
      const auto out = json::parse(r.out);
      const auto verdict = out["verdict"].get<std::string>();
      CHECK(r.exit_code == (verdict == "pass" ? 0 : verdict == "fail" ? 1 : 3));
      if (verdict == "pass") CHECK(shows_all(out["facts"]));
      if (verdict == "incomplete") CHECK(!out["not_shown"].empty());
      CHECK(out["not_shown"].empty() == shows_all(out["facts"]));
      (verdict == "pass" ? passed : verdict == "fail" ? failed : incomplete)++;
    }
  }
  WARN("pastes: " << passed << " pass, " << failed << " fail, " << incomplete << " incomplete");
  CHECK(incomplete > 0);
}

TEST_CASE("an incomplete paste says what it lacks and whom to ask for what", "[cli][paste]") {
  TempDir t;
  gpucheck::test::write_file(t.path() / "oom.txt",
                             "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB. GPU 0 has a total capacity of "
                             "23.65 GiB of which 3.06 MiB is free.\n");
  const auto text = run_gpucheck({"check", "--from", (t.path() / "oom.txt").string()});
  INFO(text.out << text.err);
  CHECK(text.exit_code == 3);
  CHECK_THAT(text.out, Catch::Contains("INCOMPLETE") && Catch::Contains("Not in the report") &&
                           Catch::Contains("ask the reporter for `nvidia-smi`") &&
                           Catch::Contains("`python -m torch.utils.collect_env`"));
  CHECK_THAT(text.out, !Catch::Contains("PASS") && !Catch::Contains("none found"));
  CHECK_THAT(text.out, Catch::Contains("not in the report"));
  for (const char* format : {"oneline", "markdown", "junit", "nfd"}) {
    INFO(format);
    const auto r = run_gpucheck({"check", "--from", (t.path() / "oom.txt").string(), "--format", format});
    CHECK(r.exit_code == 3);
    CHECK_THAT(r.out, !Catch::Contains("PASS") && !Catch::Contains("pass:") && !Catch::Contains("=pass"));
  }
  // gpucheck's own JSON is a whole probe: what it did not find, it looked
  // for, so a host without a GPU is judged, not incomplete.
  const auto cpu = run_gpucheck({"--root", gpucheck::test::source_path("tests/fixtures/hosts/cpu-only"), "probe", "--json"});
  REQUIRE(cpu.exit_code == 0);
  gpucheck::test::write_file(t.path() / "cpu.json", cpu.out);
  const auto judged = run_gpucheck({"check", "--from", (t.path() / "cpu.json").string(), "--json"});
  CHECK(judged.exit_code == 0);
  CHECK(json::parse(judged.out)["verdict"] == "pass");
  CHECK_THAT(run_gpucheck({"check", "--from", (t.path() / "cpu.json").string()}).out, Catch::Contains("none found"));
  // probe of the paste says the same in every section.
  const auto probe = run_gpucheck({"probe", "--from", (t.path() / "oom.txt").string()});
  CHECK(probe.exit_code == 0);
  CHECK_THAT(probe.out, Catch::Contains("not in the report") && !Catch::Contains("none found"));
}

TEST_CASE("an NVIDIA GPU's paste needs its NVIDIA driver, whatever ROCm it names", "[cli][paste]") {
  // synthetic: prose naming an NVIDIA card, an application and a ROCm release
  TempDir t;
  gpucheck::test::write_file(t.path() / "mixed.txt", "I use an RTX 3090\nollama v0.1.19\nI have ROCm 6.1 installed\n");
  const auto r = run_gpucheck({"check", "--from", (t.path() / "mixed.txt").string(), "--json"});
  INFO(r.out << r.err);
  CHECK(r.exit_code == 3);
  const auto out = json::parse(r.out);
  CHECK(out["verdict"] == "incomplete");
  REQUIRE(out["not_shown"].size() == 1);
  CHECK(out["not_shown"][0].dump().find("NVIDIA driver") != std::string::npos);
  CHECK(out["not_shown"][0].dump().find("nvidia-smi") != std::string::npos);
}
