// The real binary, run as a user or a launcher would: on this CI host itself
// (no GPU, no driver), with bad arguments, and recording a snapshot.
#include <catch2/catch.hpp>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "host/ld_cache.hpp"
#include "host/process.hpp"
#include "gpucheck_run.hpp"
#include "test_support.hpp"
#include "util/strings.hpp"

using namespace gpucheck;
using gpucheck::test::TempDir;
using nlohmann::json;

namespace {

CommandResult gpucheck_run(const std::vector<std::string>& args) { return gpucheck::test::run_gpucheck(args); }

// What this machine really has, read here independently of gpucheck.
bool host_has_nvidia_pci_device() {
  std::error_code ec;
  for (auto& e : std::filesystem::directory_iterator("/sys/bus/pci/devices", ec)) {
    try {
      if (trim(gpucheck::test::read_file(e.path() / "vendor")) == "0x10de") return true;
    } catch (...) {
    }
  }
  return false;
}

bool ld_cache_has(const std::string& soname) {
  auto entries = parse_ld_cache(gpucheck::test::read_file("/etc/ld.so.cache"));
  if (!entries) return false;
  for (auto& e : *entries)
    if (e.name == soname) return true;
  return false;
}

}  // namespace

TEST_CASE("on this CI host: finishes, says no NVIDIA driver is loaded and why, invents nothing", "[cli][real-host]") {
  if (std::filesystem::exists("/proc/driver/nvidia/version")) {
    WARN("this machine has an NVIDIA driver loaded; the no-driver checks do not apply");
    return;
  }
  auto r = gpucheck_run({"probe", "--json"});
  REQUIRE(r.exit_code == 0);
  const json j = json::parse(r.out);
  CHECK(j["schema"] == "gpucheck.facts/1");
  CHECK(j["nvidia_driver"]["kernel_module_loaded"] == false);
  CHECK(j["nvidia_driver"]["kernel_module"]["version"].is_null());
  CHECK(j["nvidia_driver"]["gpus"].empty());
  bool said_why = false;
  for (auto& n : j["notes"])
    if (n["subject"] == "nvidia_kernel" && n["reason"] == "absent")
      said_why = n["detail"].get<std::string>().find("not loaded") != std::string::npos;
  CHECK(said_why);
  // Nothing invented: no GPU the bus does not have, no nvidia-smi answer, no devices from a driver.
  if (!host_has_nvidia_pci_device()) {
    for (auto& d : j["pci"]) CHECK(d["vendor"] != "nvidia");
  }
  if (!ld_cache_has("libcuda.so.1")) {
    CHECK(j["nvidia_driver"]["libcuda"]["path"].is_null());
    CHECK(j["cuda_driver_api"].is_null());
  }
  if (j["cuda_driver_api"].is_object()) CHECK(j["cuda_driver_api"]["devices"].empty());
  CHECK(j["nvidia_smi"].is_null());
  CHECK(j["system"]["arch"].is_string());
  CHECK(j["system"]["kernel_release"].is_string());
}

TEST_CASE("the text report says the same for a person", "[cli][real-host]") {
  if (std::filesystem::exists("/proc/driver/nvidia/version")) return;
  auto r = gpucheck_run({"--color", "never", "probe"});
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.out, Catch::Contains("Kernel module   not loaded"));
  CHECK_THAT(r.out, Catch::Contains("the NVIDIA kernel module is not loaded"));
  CHECK(r.out.find("\x1b[") == std::string::npos);
  auto colored = gpucheck_run({"--color", "always", "probe"});
  CHECK(colored.out.find("\x1b[") != std::string::npos);
}

TEST_CASE("the version flag names the commit and the matrix in use", "[cli]") {
  auto v = gpucheck_run({"--version"});
  REQUIRE(v.exit_code == 0);
  CHECK_THAT(v.out, Catch::Contains("gpucheck " GPUCHECK_VERSION " (commit "));
  CHECK_THAT(v.out, Catch::Contains("), embedded\n"));  // as check says it
  const auto matrix = nlohmann::json::parse(gpucheck::test::read_file(gpucheck::test::source_path("matrix/matrix.json")));
  CHECK_THAT(v.out, Catch::Contains("matrix " + matrix.at("version").get<std::string>() + " (" +
                                    matrix.at("date").get<std::string>() + ")"));
  auto given = gpucheck_run({"--matrix", gpucheck::test::source_path("matrix"), "--version"});
  CHECK_THAT(given.out, Catch::Contains("from " + gpucheck::test::source_path("matrix")));
  auto broken = gpucheck_run({"--matrix", "/no/such/matrix", "--version"});
  CHECK(broken.exit_code == 0);  // the version is still printed; the matrix is said to be unusable
  CHECK_THAT(broken.out, Catch::Contains("matrix: not valid: "));
}

TEST_CASE("the help teaches today's commands", "[cli]") {
  auto h = gpucheck_run({"--help"});
  REQUIRE(h.exit_code == 0);
  for (const char* cmd : {"gpucheck check --json", "gpucheck check --kernels", "gpucheck check --from", "gpucheck explain",
                          "gpucheck recommend", "gpucheck lock", "gpucheck snapshot", "--root node17 check", "Exit codes"}) {
    INFO(cmd);
    CHECK_THAT(h.out, Catch::Contains(cmd));
  }
}

TEST_CASE("exit codes", "[cli]") {
  CHECK(gpucheck_run({"--help"}).exit_code == 0);
  CHECK(gpucheck_run({"--version"}).exit_code == 0);
  CHECK(gpucheck_run({"--version"}).out.find("gpucheck " GPUCHECK_VERSION) != std::string::npos);
  auto bad_flag = gpucheck_run({"probe", "--no-such-flag"});
  CHECK(bad_flag.exit_code == 2);
  auto bad_root = gpucheck_run({"--root", "/no/such/dir", "probe"});
  CHECK(bad_root.exit_code == 2);
  CHECK_THAT(bad_root.err, Catch::Contains("no such directory"));
  CHECK(gpucheck_run({"--timeout", "-1", "probe"}).exit_code == 2);
  CHECK(gpucheck_run({"frobnicate"}).exit_code == 2);
}

TEST_CASE("a malformed snapshot manifest stops the run with the reason", "[cli][bad-input]") {
  TempDir t;
  gpucheck::test::write_file(t.path() / ".gpucheck/manifest.json", "{\"format\": 1}");
  auto r = gpucheck_run({"--root", t.str(), "probe"});
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Catch::Contains("manifest.json"));
  CHECK_THAT(r.err, Catch::Contains("$.format"));
}

TEST_CASE("snapshot of this host replays to the same facts", "[cli][snapshot][real-host]") {
  TempDir t;
  const std::string out = t.str() + "/snap";
  auto rec = gpucheck_run({"snapshot", "--out", out, "--description", "test"});
  INFO(rec.err);
  REQUIRE(rec.exit_code == 0);
  auto live = json::parse(gpucheck_run({"probe", "--json"}).out);
  auto replay = json::parse(gpucheck_run({"--root", out, "probe", "--json"}).out);
  // The live host moves on between the runs (processes, the kernel log, the
  // uptime), so compare what does not; the recorded uptime is the replay's.
  CHECK(replay["system"]["uptime_seconds"].is_number());
  for (auto* j : {&live, &replay}) {
    j->erase("services");
    j->erase("kernel_log");
    (*j)["system"].erase("uptime_seconds");
  }
  CHECK(live.dump(2) == replay.dump(2));
  // Never overwrites: a second snapshot to the same place is refused.
  auto again = gpucheck_run({"snapshot", "--out", out});
  CHECK(again.exit_code == 2);
  CHECK_THAT(again.err, Catch::Contains("already exists"));
  CHECK(std::filesystem::exists(out + "/.gpucheck/manifest.json"));
}
