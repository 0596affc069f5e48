// The gate's sources, run live as a launcher runs it: the binary, with the
// fake libcuda and the fake NVML (tests/fake_cuda) as this host's driver and
// no nvidia-smi on PATH. What a job can use is what the CUDA driver API
// lists; the driver's view of each GPU comes from NVML where nvidia-smi is
// absent; what neither gives fails, named. And the promises of the command
// line: an interpreter named that is not there, an answer that could not be
// written, a lock of a failing host.
#include <catch2/catch.hpp>

#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "gpucheck_run.hpp"
#include "test_support.hpp"

namespace fs = std::filesystem;
using gpucheck::test::run_gpucheck_with;
using gpucheck::test::TempDir;
using gpucheck::test::write_file;
using nlohmann::json;

namespace {

const std::string kFakeDir = GPUCHECK_FAKE_CUDA_DIR;

// Synthetic: one H100 at 0000:18:00.0, as the fake libcuda and the fake
// NVML describe it.
const std::string kDevice =
    "device name=\"NVIDIA H100 80GB HBM3\" uuid=GPU-5e7a1c0b-9f3d-4a6e-8b21-0c4d7e9f1a23 cc=9.0 sms=132 mem=85520809984 "
    "bus=0000:18:00.0\n";

// The environment of a host whose driver the fakes are: no nvidia-smi on
// PATH (an empty directory first, then the system's, which has none here).
std::vector<std::string> fake_host(const TempDir& t, const std::string& cuda_extra, const std::string& nvml) {
  write_file(t.path() / "cuda.txt", "driver_version 12020\n" + kDevice + cuda_extra);
  write_file(t.path() / "nvml.txt", nvml);
  fs::create_directories(t.path() / "bin");
  return {"PATH=" + t.str() + "/bin:/usr/bin:/bin", "LD_LIBRARY_PATH=" + kFakeDir, "GPUCHECK_FAKE_CUDA=" + t.str() + "/cuda.txt",
          "GPUCHECK_FAKE_NVML=" + t.str() + "/nvml.txt"};
}

const std::string kNvmlH100 = "driver 535.104.05\ncuda 12020\ndevice bus=0000:18:00.0 name=\"NVIDIA H100 80GB HBM3\"\n";

std::set<std::string> rules_of(const json& report) {
  std::set<std::string> out;
  for (auto& f : report["findings"]) out.insert(f["rule"].get<std::string>());
  return out;
}

const json* finding(const json& report, const std::string& rule) {
  for (auto& f : report["findings"])
    if (f["rule"] == rule) return &f;
  return nullptr;
}

}  // namespace

TEST_CASE("without nvidia-smi, the driver's view of each GPU comes from NVML and is judged", "[cli][gate][fake_cuda]") {
  TempDir t;
  auto env = fake_host(t, "", kNvmlH100 + "");
  auto ok = run_gpucheck_with(env, "", {"check", "--json", "--gpus", "1"});
  INFO(ok.err);
  const auto j = json::parse(ok.out);
  CHECK(j["facts"]["nvidia_smi"]["source"].get<std::string>().rfind("NVML (", 0) == 0);
  CHECK(j["facts"]["nvidia_smi"]["gpus"].size() == 1);
  CHECK(rules_of(j).count("unverified-nvidia_smi") == 0);
  CHECK(rules_of(j).count("require-gpus") == 0);

  // A health fact NVML gave is judged as nvidia-smi's would be.
  env = fake_host(t, "", "driver 535.104.05\ndevice bus=0000:18:00.0 remap_pending=1\n");
  const auto pending = json::parse(run_gpucheck_with(env, "", {"check", "--json"}).out);
  const json* remap = finding(pending, "row-remap-pending");
  REQUIRE(remap);
  CHECK_THAT((*remap)["evidence"][0]["source"].get<std::string>(), Catch::StartsWith("NVML"));
}

TEST_CASE("without nvidia-smi, an NVML that fails or hangs leaves the GPU host unverified", "[cli][gate][fake_cuda]") {
  TempDir t;
  auto env = fake_host(t, "", "init 9\n");  // NVML_ERROR_DRIVER_NOT_LOADED
  auto failed = run_gpucheck_with(env, "", {"check", "--json"});
  CHECK(failed.exit_code == 1);
  const auto j = json::parse(failed.out);
  const json* f = finding(j, "unverified-nvidia_smi");
  REQUIRE(f);
  CHECK((*f)["severity"] == "error");
  CHECK_THAT((*f)["message"].get<std::string>(), Catch::Contains("nvmlInit_v2 returned 9") && Catch::Contains("not installed"));

  env = fake_host(t, "", "hang nvmlInit_v2\n");
  auto hung = run_gpucheck_with(env, "", {"--timeout", "3", "check", "--json"});
  CHECK(hung.exit_code == 1);
  CHECK(rules_of(json::parse(hung.out)).count("unverified-nvidia_smi") == 1);
}

TEST_CASE("check --gpus counts the GPUs CUDA lists, and a count that failed is named, live", "[cli][gate][fake_cuda]") {
  TempDir t;
  auto env = fake_host(t, "count 999\n", kNvmlH100);  // cuDeviceGetCount answers CUDA_ERROR_UNKNOWN
  auto r = run_gpucheck_with(env, "", {"check", "--json", "--gpus", "1"});
  CHECK(r.exit_code == 1);
  const auto j = json::parse(r.out);
  CHECK(rules_of(j).count("unverified-cuda_driver_api") == 1);  // which names the count among what it did not read
  CHECK(rules_of(j).count("unverified-gpu_count") == 0);
  CHECK(j["facts"]["cuda_driver_api"]["device_count"].is_null());

  // CUDA lists one GPU; the job asks for two.
  env = fake_host(t, "", kNvmlH100);
  const auto two = json::parse(run_gpucheck_with(env, "", {"check", "--json", "--gpus", "2"}).out);
  const json* need = finding(two, "require-gpus");
  REQUIRE(need);
  CHECK_THAT((*need)["message"].get<std::string>(), Catch::Contains("can use 1 GPU(s)"));
  CHECK((*need)["action"] == "none");  // the node is not at fault: schedule the job on a bigger one
}

TEST_CASE("requirements on a host without a GPU fail, saying so", "[cli][gate]") {
  auto r = run_gpucheck_with({"PATH=/usr/bin:/bin", "LD_LIBRARY_PATH="}, "",
                             {"check", "--require", "bf16", "--min-compute", "8.0", "--min-memory", "40G", "--format", "oneline"});
  CHECK(r.exit_code == 1);
  CHECK_THAT(r.out, Catch::StartsWith("FAIL: No GPU for the job's requirements") && Catch::EndsWith("[none]\n"));
  // Asked for nothing, a CPU host passes: it has nothing to prove.
  auto plain = run_gpucheck_with({"PATH=/usr/bin:/bin", "LD_LIBRARY_PATH="}, "",
                                 {"--root", gpucheck::test::source_path("tests/fixtures/hosts/cpu-only"), "check", "--format", "oneline"});
  CHECK(plain.out == "PASS\n");
}

TEST_CASE("one fault on eight GPUs is one short line, for a drain reason", "[cli][gate]") {
  TempDir t;
  const auto root = t.path() / "unbound";
  fs::copy(gpucheck::test::source_path("tests/fixtures/hosts/h100-sxm-8gpu"), root,
           fs::copy_options::recursive | fs::copy_options::copy_symlinks);
  for (auto& d : fs::directory_iterator(root / "sys/bus/pci/devices"))
    if (fs::is_symlink(d.path() / "driver") && fs::read_symlink(d.path() / "driver").filename() == "nvidia") fs::remove(d.path() / "driver");
  auto r = run_gpucheck_with({}, "", {"--root", root.string(), "check", "--format", "oneline", "--gpus", "8"});
  CHECK(r.exit_code == 1);
  CHECK(r.out == "FAIL: NVIDIA GPU with no kernel driver bound (8 GPUs) [reload-driver]\n");
  const auto j = json::parse(run_gpucheck_with({}, "", {"--root", root.string(), "check", "--json"}).out);
  const json* f = finding(j, "gpu-without-driver");
  REQUIRE(f);
  CHECK((*f)["gpus"].size() == 8);
  CHECK((*f)["scope"] == "8 GPUs (NVIDIA H100 80GB HBM3): 0000:{18,2a,3a,5d,9a,ab,ba,db}:00.0");
  CHECK(j["findings"].size() == 1);
}

TEST_CASE("what the user named is checked: --python, and every byte of the answer", "[cli][gate]") {
  auto missing = run_gpucheck_with({}, "", {"check", "--python", "/nonexistent/python3"});
  CHECK(missing.exit_code == 2);
  CHECK_THAT(missing.err, Catch::Contains("--python /nonexistent/python3: no such file or directory"));
  CHECK(run_gpucheck_with({}, "", {"probe", "--python", "/nonexistent/python3"}).exit_code == 2);
  // A relative path is the working directory's, a bare name PATH's, as in a
  // shell; inside --root only an absolute path means anything.
  const auto named_as = [](const std::string& cwd, const std::string& python) {
    auto r = run_gpucheck_with({"PATH=/usr/bin:/bin"}, cwd, {"probe", "--json", "--python", python});
    REQUIRE(r.exit_code == 0);
    const auto report = nlohmann::json::parse(r.out);
    for (auto& env : report["software"]["python"]) {
      const auto via = env["found_via"].get<std::vector<std::string>>();
      if (std::find(via.begin(), via.end(), "--python") != via.end()) return env["interpreter"].get<std::string>();
    }
    return std::string("(no --python environment)");
  };
  CHECK(named_as("/usr", "bin/python3") == "/usr/bin/python3");
  CHECK(named_as("/", "python3") == "/usr/bin/python3");
  auto not_on_path = run_gpucheck_with({"PATH=/usr/bin:/bin"}, "", {"check", "--python", "no-such-python3"});
  CHECK(not_on_path.exit_code == 2);
  CHECK_THAT(not_on_path.err, Catch::Contains("--python no-such-python3: no such file or directory on PATH"));
  auto relative_in_root = run_gpucheck_with(
      {}, "", {"--root", gpucheck::test::source_path("tests/fixtures/hosts/venv-torch-cu121"), "check", "--python", "venv/bin/python"});
  CHECK(relative_in_root.exit_code == 2);
  CHECK_THAT(relative_in_root.err, Catch::Contains("absolute path inside the snapshot"));
  // A full disk: the report did not arrive, so no verdict stands.
  const std::string h100 = gpucheck::test::source_path("tests/fixtures/hosts/h100-sxm-8gpu");
  auto full = gpucheck::run_process("/bin/sh", {"-c", "\"$0\" --root \"$1\" check --json > /dev/full", gpucheck::test::gpucheck_binary(), h100},
                                    gpucheck::Millis(60000));
  REQUIRE(full);
  CHECK(full->exit_code == 2);
  CHECK_THAT(full->err, Catch::Contains("cannot write standard output: No space left on device"));
}

TEST_CASE("lock tells the truth of a failing host, and its constraints follow the pins", "[cli][lock]") {
  TempDir t;
  const std::string venv = gpucheck::test::source_path("tests/fixtures/hosts/venv-torch-cu121");
  auto warned = run_gpucheck_with({}, "", {"--root", venv, "lock", "-o", t.str() + "/a.lock"});
  CHECK(warned.exit_code == 0);
  CHECK_THAT(warned.err, Catch::Contains("warning: this host fails gpucheck check") && Catch::Contains("Installed wheels break a package's pins"));
  CHECK(fs::exists(t.path() / "a.lock"));
  auto refused = run_gpucheck_with({}, "", {"--root", venv, "lock", "--strict", "-o", t.str() + "/b.lock"});
  CHECK(refused.exit_code == 1);
  CHECK_FALSE(fs::exists(t.path() / "b.lock"));
  auto constraints = run_gpucheck_with({}, "", {"--root", venv, "lock", "--emit", "constraints"});
  CHECK(constraints.exit_code == 0);
  CHECK_THAT(constraints.out, Catch::Contains("\nnvidia-cudnn-cu12==8.9.2.26\n") && Catch::Contains("torch==2.1.0+cu121"));
  CHECK(constraints.out.find("nvidia-cudnn-cu12==8.9.7.29") == std::string::npos);
}
