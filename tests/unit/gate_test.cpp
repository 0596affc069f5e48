// gpucheck as a launcher's gate, run as the launcher runs it: the binary,
// a real venv whose torch pin is unmet (so the host fails), and one thing
// that hangs, crashes or prints. The gate must still fail, in time, and
// name what did not answer.
#include <catch2/catch.hpp>

#include <signal.h>
#include <sys/stat.h>

#include <chrono>
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
// What a run may take past its --timeout: the sanitized binary on a loaded
// 2-CPU machine (a CI run beside parallel builds took 5.05 s on a 3 s
// deadline). A hang would take the hung child's 100 s; this bounds the
// run, it is not a benchmark.
constexpr double kSlackSeconds = 5;

// A venv made by Debian's python3, with a torch whose cuDNN pin is not what
// is installed: `check` fails on it whatever else happens.
std::string venv_with_unmet_pin(const TempDir& t) {
  const std::string venv = t.str() + "/venv";
  auto made = gpucheck::run_process("/usr/bin/python3", {"-m", "venv", "--without-pip", venv}, gpucheck::Millis(60000));
  REQUIRE(made);
  REQUIRE(made->exit_code == 0);
  fs::path site;
  for (auto& e : fs::directory_iterator(venv + "/lib")) site = e.path() / "site-packages";
  REQUIRE(fs::is_directory(site));
  write_file(site / "torch-2.3.0.dist-info/METADATA",
             "Metadata-Version: 2.1\nName: torch\nVersion: 2.3.0\n"
             "Requires-Dist: nvidia-cudnn-cu12 (==8.9.2.26) ; platform_system == \"Linux\"\n");
  write_file(site / "nvidia_cudnn_cu12-9.1.0.70.dist-info/METADATA", "Metadata-Version: 2.1\nName: nvidia-cudnn-cu12\nVersion: 9.1.0.70\n");
  return venv;
}

std::string hung_nvidia_smi(const TempDir& t) {
  const std::string dir = t.str() + "/bin";
  write_file(dir + "/nvidia-smi", "#!/bin/sh\nsleep 100\n");
  ::chmod((dir + "/nvidia-smi").c_str(), 0755);
  return dir;
}

std::string fake_driver(const TempDir& t, const std::string& extra) {
  const std::string path = t.str() + "/driver.txt";
  write_file(path, "driver_version 12020\n"
                   "device name=\"NVIDIA H100 80GB HBM3\" uuid=GPU-5e7a1c0b-9f3d-4a6e-8b21-0c4d7e9f1a23 cc=9.0 sms=132 "
                   "mem=85520809984 bus=0000:18:00.0\n" + extra);
  return path;
}

std::set<std::string> rules_of(const json& report) {
  std::set<std::string> out;
  for (auto& f : report["findings"]) out.insert(f["rule"].get<std::string>());
  return out;
}

std::set<std::string> timed_out_of(const json& report) {
  std::set<std::string> out;
  for (auto& t : report["timed_out"]) out.insert(t["probe"].get<std::string>());
  return out;
}

struct Timed {
  gpucheck::CommandResult r;
  double seconds;
};

Timed timed_run(const std::vector<std::string>& env, const std::vector<std::string>& args) {
  const auto start = std::chrono::steady_clock::now();
  auto r = run_gpucheck_with(env, "", args);
  return {r, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()};
}

}  // namespace

TEST_CASE("a failing host still fails with nvidia-smi hung, and the report names it", "[cli][gate]") {
  TempDir t;
  const auto venv = venv_with_unmet_pin(t);
  const std::string path = "PATH=" + hung_nvidia_smi(t) + ":/usr/bin:/bin";

  auto plain = timed_run({"VIRTUAL_ENV=" + venv}, {"check", "--json"});
  REQUIRE(plain.r.exit_code == 1);
  CHECK(rules_of(json::parse(plain.r.out)).count("pinned-requirement-unmet") == 1);

  auto hung = timed_run({"VIRTUAL_ENV=" + venv, path}, {"--timeout", "3", "check", "--json"});
  INFO(hung.r.err);
  REQUIRE(hung.r.exit_code == 1);
  const auto j = json::parse(hung.r.out);
  CHECK(rules_of(j).count("pinned-requirement-unmet") == 1);
  CHECK(timed_out_of(j).count("nvidia_smi") == 1);
  CHECK(hung.seconds < 3 + kSlackSeconds);

  // Told the node has a GPU, the hang itself is an error a launcher sees.
  auto gate = timed_run({path}, {"--timeout", "3", "check", "--json", "--gpus", "1"});
  CHECK(gate.r.exit_code == 1);
  CHECK(rules_of(json::parse(gate.r.out)).count("unverified-nvidia_smi") == 1);

  auto text = timed_run({"VIRTUAL_ENV=" + venv, path}, {"--timeout", "3", "check"});
  CHECK_THAT(text.r.out, Catch::Contains("Timed out") && Catch::Contains("nvidia_smi"));
}

TEST_CASE("a hung cuInit costs the driver API only: the failing host fails in time", "[cli][gate][fake_cuda]") {
  TempDir t;
  const auto venv = venv_with_unmet_pin(t);
  const std::vector<std::string> env{"VIRTUAL_ENV=" + venv, "LD_LIBRARY_PATH=" + kFakeDir,
                                     "GPUCHECK_FAKE_CUDA=" + fake_driver(t, "hang cuInit\n")};
  auto hung = timed_run(env, {"--timeout", "5", "check", "--json", "--gpus", "1"});
  INFO(hung.r.err);
  REQUIRE(hung.r.exit_code == 1);
  const auto j = json::parse(hung.r.out);
  const auto rules = rules_of(j);
  CHECK(rules.count("pinned-requirement-unmet") == 1);
  CHECK(rules.count("unverified-cuda_driver_api") == 1);
  CHECK(timed_out_of(j).count("cuda_driver_api") == 1);
  CHECK(hung.seconds < 5 + kSlackSeconds);

  // Both hung: nvidia-smi ran beside the driver call, for its own time, and
  // its note says how long (it said "killed after 0 ms", the time left).
  auto both = timed_run({env[0], env[1], env[2], "PATH=" + hung_nvidia_smi(t) + ":/usr/bin:/bin"},
                        {"--timeout", "3", "check", "--json", "--gpus", "1"});
  REQUIRE(both.r.exit_code == 1);
  std::string smi_detail;
  const auto report = json::parse(both.r.out);
  for (auto& n : report["facts"]["notes"])
    if (n["subject"] == "nvidia_smi" && n["reason"] == "timed_out") smi_detail = n["detail"].get<std::string>();
  INFO(smi_detail);
  CHECK_THAT(smi_detail, Catch::StartsWith("killed after "));
  CHECK_THAT(smi_detail, !Catch::StartsWith("killed after 0 ms"));
}

TEST_CASE("a cuInit that crashes is unverified, not a pass", "[cli][gate][fake_cuda]") {
  TempDir t;
  const std::vector<std::string> env{"LD_LIBRARY_PATH=" + kFakeDir, "GPUCHECK_FAKE_CUDA=" + fake_driver(t, "crash cuInit\n")};
  auto r = timed_run(env, {"check", "--json", "--gpus", "1"});
  REQUIRE(r.r.exit_code == 1);
  const auto j = json::parse(r.r.out);
  bool named = false;
  for (auto& f : j["findings"])
    if (f["rule"] == "unverified-cuda_driver_api") {
      named = true;
      CHECK(f["category"] == "unverified");
      CHECK(f["severity"] == "error");
      CHECK_THAT(f["message"].get<std::string>(), Catch::Contains("signal 11"));
    }
  CHECK(named);
}

TEST_CASE("a libcuda that prints or leaves a daemon cannot spoil the report or hold the run", "[cli][gate][fake_cuda]") {
  TempDir t;
  const std::vector<std::string> env{"LD_LIBRARY_PATH=" + kFakeDir,
                                     "GPUCHECK_FAKE_CUDA=" + fake_driver(t, "print cuInit\ndaemon cuInit\n")};
  auto r = timed_run(env, {"probe", "--json"});
  REQUIRE(r.r.exit_code == 0);
  CHECK(r.r.out.find("fake libcuda:") == std::string::npos);
  const auto j = json::parse(r.r.out);  // throws if a line of the library's reached standard output
  // Had the daemon kept the answer's pipe open, the call would have run to
  // its deadline and answered nothing.
  REQUIRE(j["cuda_driver_api"].is_object());
  CHECK(j["cuda_driver_api"]["devices"].size() == 1);
  for (auto& n : j["notes"]) CHECK_FALSE((n["subject"] == "cuda_driver_api" && n["reason"] == "timed_out"));
  // And it is gone, although it left the child's process group and session.
  const auto pid_text = gpucheck::test::read_file(t.str() + "/driver.txt.daemon-pid");
  const auto pid = static_cast<pid_t>(std::stol(pid_text));
  REQUIRE(pid > 1);
  CHECK(::kill(pid, 0) != 0);
}

TEST_CASE("level 1 reads files only: no program starts, no driver call, nothing unverified", "[cli][gate]") {
  TempDir t;
  const std::string bin = t.str() + "/bin";
  const std::string marker = t.str() + "/nvidia-smi-ran";
  write_file(bin + "/nvidia-smi", "#!/bin/sh\ntouch " + marker + "\nexit 9\n");
  ::chmod((bin + "/nvidia-smi").c_str(), 0755);
  const std::vector<std::string> env{"PATH=" + bin + ":/usr/bin:/bin", "LD_LIBRARY_PATH=" + kFakeDir,
                                     "GPUCHECK_FAKE_CUDA=" + fake_driver(t, "crash cuInit\n")};

  auto one = run_gpucheck_with(env, "", {"--level", "1", "check", "--json", "--gpus", "1"});
  const auto j = json::parse(one.out);
  CHECK_FALSE(fs::exists(marker));
  CHECK(j["source"].get<std::string>().find("--level 1") != std::string::npos);
  std::set<std::string> skipped;
  for (auto& n : j["facts"]["notes"])
    if (n["reason"] == "skipped") skipped.insert(n["subject"].get<std::string>());
  CHECK(skipped.count("nvidia_smi") == 1);
  CHECK(skipped.count("cuda_driver_api") == 1);
  for (auto& f : j["findings"]) CHECK(f["category"] != "unverified");  // not asked is not unproven

  // Level 2, the default, runs both: nvidia-smi's failure and the crash are seen.
  auto two = run_gpucheck_with(env, "", {"check", "--json", "--gpus", "1"});
  CHECK(fs::exists(marker));
  const auto rules = rules_of(json::parse(two.out));
  CHECK(rules.count("unverified-cuda_driver_api") == 1);
  CHECK(run_gpucheck_with({}, "", {"--level", "4", "check"}).exit_code == 2);
}

TEST_CASE("nvidia-smi that floods or ignores SIGTERM, and nvcc that hangs: each bounded, each named", "[cli][gate]") {
  TempDir t;
  const std::string bin = t.str() + "/bin";
  SECTION("a flood of output is capped and killed at the deadline") {
    write_file(bin + "/nvidia-smi", "#!/bin/sh\nexec yes 'GPU 0: flooding'\n");
  }
  SECTION("SIGTERM ignored: the kill is SIGKILL, to its whole group") {
    write_file(bin + "/nvidia-smi", "#!/bin/sh\ntrap '' TERM\nsleep 100 &\nwait\n");
  }
  ::chmod((bin + "/nvidia-smi").c_str(), 0755);
  auto r = timed_run({"PATH=" + bin + ":/usr/bin:/bin"}, {"--timeout", "3", "check", "--json", "--gpus", "1"});
  REQUIRE(r.r.exit_code == 1);
  const auto j = json::parse(r.r.out);
  CHECK(rules_of(j).count("unverified-nvidia_smi") == 1);
  CHECK(r.seconds < 3 + kSlackSeconds);
}

TEST_CASE("a hung nvcc --version is timed_out, not absent", "[cli][gate]") {
  TempDir t;
  const std::string cuda = t.str() + "/cuda-12.4";
  write_file(cuda + "/bin/nvcc", "#!/bin/sh\nsleep 100\n");
  ::chmod((cuda + "/bin/nvcc").c_str(), 0755);
  auto r = timed_run({"CUDA_HOME=" + cuda}, {"--timeout", "3", "check", "--json"});
  const auto j = json::parse(r.r.out);
  bool timed_out = false;
  for (auto& n : j["facts"]["notes"])
    timed_out |= n["subject"] == "cuda_toolkits" && n["item"] == cuda + " version" && n["reason"] == "timed_out";
  CHECK(timed_out);
  CHECK(timed_out_of(j).count("cuda_toolkits") == 1);
  CHECK(r.seconds < 3 + kSlackSeconds);
}

TEST_CASE("a snapshot that recorded nvidia-smi or the driver call as timed out is unverified", "[cli][gate]") {
  TempDir t;
  const auto snap = t.path() / "snap";
  fs::copy(gpucheck::test::source_path("tests/fixtures/hosts/h100-sxm-8gpu"), snap, fs::copy_options::recursive | fs::copy_options::copy_symlinks);
  auto m = json::parse(gpucheck::test::read_file((snap / ".gpucheck/manifest.json").string()));
  m["commands"]["nvidia-smi -q -x"] = {{"resolved", "/usr/bin/nvidia-smi"}, {"exit_code", -1}, {"signal", 9}, {"timed_out", true}};
  m["calls"]["cuda-driver-api"] = {{"error", {{"reason", "timed_out"}, {"where", "cuda-driver-api"}, {"detail", "no answer within 10000 ms; the call was killed"}}}};
  write_file(snap / ".gpucheck/manifest.json", m.dump());
  auto r = gpucheck::test::run_gpucheck({"--root", snap.string(), "check", "--json"});
  REQUIRE(r.exit_code == 1);
  const auto rules = rules_of(json::parse(r.out));
  CHECK(rules.count("unverified-nvidia_smi") == 1);
  CHECK(rules.count("unverified-cuda_driver_api") == 1);
}
