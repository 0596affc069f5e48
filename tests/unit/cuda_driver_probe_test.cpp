// The CUDA Driver API probe against the fake libcuda.so.1 (tests/fake_cuda):
// the live host, the library locator and the forked, deadline-bound call are
// all real; only the driver is a double, described per scenario in a file.
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "facts/facts_json.hpp"
#include "host/hosts.hpp"
#include "fake_cuda_support.hpp"
#include "probe.hpp"

using namespace gpucheck;
using Clock = std::chrono::steady_clock;
namespace fs = std::filesystem;

namespace {

using gpucheck::test::ScopedEnv;

const std::string kFakeDir = GPUCHECK_FAKE_CUDA_DIR;


class TempDir {
 public:
  TempDir() {
    std::string tmpl = (fs::temp_directory_path() / "gpucheck-cuda-XXXXXX").string();
    REQUIRE(::mkdtemp(tmpl.data()) != nullptr);
    path_ = tmpl;
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// One scenario: the description written to a file, the fake on the
// loader's path (or `lib_dir` instead), the two probes run on the live host.
struct Scenario {
  TempDir dir;
  ScopedEnv description;
  ScopedEnv library_path;
  Scenario(const std::string& text, const std::string& lib_dir = kFakeDir)
      : description("GPUCHECK_FAKE_CUDA", write(dir.path() + "/driver.txt", text)),
        library_path("LD_LIBRARY_PATH", lib_dir) {}
  static std::string write(const std::string& path, const std::string& text) {
    std::ofstream(path) << text;
    return path;
  }
};

Facts probe(const ProbeOptions& opts = {}) {
  LiveHost host;
  ProbeContext ctx(host, opts);
  probe_nvidia_userspace(ctx);
  probe_cuda_driver_api(ctx);
  finish_cuda_driver_api(ctx);
  return std::move(ctx.facts());
}

// nvidia-smi's spelling: GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx, lower-case hex.
bool uuid_form(const std::string& s) {
  if (s.size() != 40 || s.rfind("GPU-", 0) != 0) return false;
  for (std::size_t i = 4; i < s.size(); ++i) {
    const bool dash = i == 12 || i == 17 || i == 22 || i == 27;
    const char c = s[i];
    if (dash ? c != '-' : !((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return true;
}

std::vector<Note> notes_about(const Facts& f, const std::string& subject) {
  std::vector<Note> out;
  for (auto& n : f.notes)
    if (n.subject == subject) out.push_back(n);
  return out;
}

const std::string kTwoGpus =
    "# two GPUs of different kinds, so no value can be borrowed from the other\n"
    "driver_version 12020\n"
    "init 0\n"
    "device name=\"NVIDIA H100 80GB HBM3\" uuid=GPU-5e7a1c0b-9f3d-4a6e-8b21-0c4d7e9f1a23 cc=9.0 sms=132 "
    "mem=85520809984 bus=0000:18:00.0\n"
    "device name=\"NVIDIA A100-SXM4-40GB\" uuid=GPU-0123abcd-4567-89ef-fedc-ba9876543210 cc=8.0 sms=108 "
    "mem=42505273344 bus=0000:1B:00.0\n";

}  // namespace

TEST_CASE("cuda driver probe: a healthy driver with two GPUs", "[cuda_driver]") {
  Scenario s(kTwoGpus);
  const Facts f = probe();

  const auto& lib = f.nvidia_driver.libcuda;
  REQUIRE(lib.path);
  CHECK(*lib.path == kFakeDir + "/libcuda.so.1");
  CHECK(lib.via == std::optional<std::string>("LD_LIBRARY_PATH"));
  CHECK(lib.version == std::optional<std::string>("535.104.05"));  // from libcuda.so.535.104.05
  CHECK_FALSE(lib.stub);

  REQUIRE(f.cuda);
  const auto& c = *f.cuda;
  CHECK(c.library == lib.path);
  CHECK(c.init_code == 0);
  CHECK(c.init_name == std::optional<std::string>("CUDA_SUCCESS"));
  CHECK(c.init_message == std::optional<std::string>("no error"));
  CHECK(c.driver_version == std::optional<std::string>("12.2"));
  CHECK(notes_about(f, "cuda_driver_api").empty());

  REQUIRE(c.devices.size() == 2);
  const auto& h100 = c.devices[0];
  CHECK(h100.ordinal == 0);
  CHECK(h100.name == std::optional<std::string>("NVIDIA H100 80GB HBM3"));
  CHECK(h100.compute_capability == std::optional<std::string>("9.0"));
  CHECK(h100.sm_count == 132);
  CHECK(h100.memory_bytes == std::uint64_t{85520809984});
  REQUIRE(h100.uuid);
  CHECK(uuid_form(*h100.uuid));
  CHECK(*h100.uuid == "GPU-5e7a1c0b-9f3d-4a6e-8b21-0c4d7e9f1a23");
  CHECK(h100.pci_bus_id == std::optional<std::string>("0000:18:00.0"));

  const auto& a100 = c.devices[1];
  CHECK(a100.ordinal == 1);
  CHECK(a100.name == std::optional<std::string>("NVIDIA A100-SXM4-40GB"));
  CHECK(a100.compute_capability == std::optional<std::string>("8.0"));
  CHECK(a100.sm_count == 108);
  CHECK(a100.memory_bytes == std::uint64_t{42505273344});
  REQUIRE(a100.uuid);
  CHECK(uuid_form(*a100.uuid));
  CHECK(*a100.uuid == "GPU-0123abcd-4567-89ef-fedc-ba9876543210");
  CHECK(a100.pci_bus_id == std::optional<std::string>("0000:1b:00.0"));  // normalised to lower case
}

TEST_CASE("cuda driver probe: cuInit failures keep their code, name and message", "[cuda_driver]") {
  struct Case {
    int code;
    const char* name;
    const char* message;
  };
  const Case cases[] = {
      {100, "CUDA_ERROR_NO_DEVICE", "no CUDA-capable device is detected"},
      {803, "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH", "system has unsupported display driver / cuda driver combination"},
      {804, "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE", "forward compatibility was attempted on non supported HW"},
      {999, "CUDA_ERROR_UNKNOWN", "unknown error"},
  };
  for (const auto& k : cases) {
    INFO("cuInit returns " << k.code);
    // The devices are there, but a failed cuInit must hide them.
    Scenario s(kTwoGpus + "init " + std::to_string(k.code) + "\n");
    const Facts f = probe();
    REQUIRE(f.cuda);
    CHECK(f.cuda->init_code == k.code);
    CHECK(f.cuda->init_name == std::optional<std::string>(k.name));
    CHECK(f.cuda->init_message == std::optional<std::string>(k.message));
    CHECK(f.cuda->driver_version == std::optional<std::string>("12.2"));  // answered without cuInit
    CHECK(f.cuda->devices.empty());
    const auto notes = notes_about(f, "cuda_driver_api");
    REQUIRE(notes.size() == 1);
    CHECK(notes[0].item == "cuInit");
    CHECK(notes[0].problem.reason == Reason::failed);
    CHECK_THAT(notes[0].problem.detail, Catch::Contains(std::to_string(k.code)) && Catch::Contains(k.name));
  }
}

TEST_CASE("cuda driver probe: an unreadable description is cuInit 999", "[cuda_driver]") {
  Scenario s("");
  ScopedEnv missing("GPUCHECK_FAKE_CUDA", s.dir.path() + "/no-such-file.txt");
  const Facts f = probe();
  REQUIRE(f.cuda);
  CHECK(f.cuda->init_code == 999);
  CHECK(f.cuda->init_name == std::optional<std::string>("CUDA_ERROR_UNKNOWN"));
  CHECK_FALSE(f.cuda->driver_version);
  CHECK(f.cuda->devices.empty());
  const auto notes = notes_about(f, "cuda_driver_api");
  REQUIRE(notes.size() == 1);
  CHECK(notes[0].problem.reason == Reason::failed);
  CHECK_THAT(notes[0].problem.detail, Catch::Contains("999"));
}

TEST_CASE("cuda driver probe: the toolkit's stub library answers 34 to everything", "[cuda_driver]") {
  Scenario s("stub\n");
  const Facts f = probe();
  REQUIRE(f.cuda);
  CHECK(f.cuda->init_code == 34);
  // The stub cannot name its own error (measured on CUDA 13.0's stub), so
  // the probe has no name or message from the library.
  CHECK_FALSE(f.cuda->init_name);
  CHECK_FALSE(f.cuda->init_message);
  CHECK_FALSE(f.cuda->driver_version);
  CHECK(f.cuda->devices.empty());
  const auto notes = notes_about(f, "cuda_driver_api");
  REQUIRE(notes.size() == 1);
  CHECK(notes[0].item == "cuInit");
  CHECK(notes[0].problem.reason == Reason::failed);
  CHECK_THAT(notes[0].problem.detail, Catch::Contains("cuInit returned 34"));
}

TEST_CASE("cuda driver probe: a cuInit that never returns is killed at the driver deadline", "[cuda_driver]") {
  Scenario s(kTwoGpus + "hang cuInit\n");
  ProbeOptions opts;
  opts.driver_timeout = Millis(500);
  const auto start = Clock::now();
  const Facts f = probe(opts);
  const auto elapsed = Clock::now() - start;
  CHECK(elapsed < std::chrono::seconds(5));  // a bound, not a benchmark
  CHECK_FALSE(f.cuda);
  const auto notes = notes_about(f, "cuda_driver_api");
  REQUIRE(notes.size() == 1);
  CHECK(notes[0].problem.reason == Reason::timed_out);
  CHECK_THAT(notes[0].problem.detail, Catch::Contains("500 ms"));
}

TEST_CASE("cuda driver probe: a driver that crashes in a device query", "[cuda_driver]") {
  Scenario s(kTwoGpus + "crash cuDeviceGetName\n");
  const Facts f = probe();
  CHECK_FALSE(f.cuda);
  const auto notes = notes_about(f, "cuda_driver_api");
  REQUIRE(notes.size() == 1);
  CHECK(notes[0].problem.reason == Reason::failed);
  CHECK_THAT(notes[0].problem.detail, Catch::Contains("signal " + std::to_string(SIGSEGV)));
}

TEST_CASE("cuda driver probe: no libcuda.so.1 anywhere", "[cuda_driver]") {
  TempDir empty;
  Scenario s(kTwoGpus, empty.path());
  const Facts f = probe();
  if (f.nvidia_driver.libcuda.path) {
    // A host with a real driver (in ld.so.cache or a default directory)
    // cannot play this scenario.
    WARN("this host has " << *f.nvidia_driver.libcuda.path << "; the no-driver case is not tested here");
    return;
  }
  CHECK_FALSE(f.cuda);
  const auto user = notes_about(f, "nvidia_userspace");
  CHECK(std::any_of(user.begin(), user.end(), [](const Note& n) {
    return n.item == "libcuda.so.1" && n.problem.reason == Reason::absent;
  }));
  const auto notes = notes_about(f, "cuda_driver_api");
  REQUIRE(notes.size() == 1);
  CHECK(notes[0].problem.reason == Reason::absent);
  CHECK(notes[0].problem.where == "libcuda.so.1");
}

TEST_CASE("cuda driver probe: a recorded snapshot replays the same driver answer", "[cuda_driver][snapshot]") {
  Scenario s(kTwoGpus);
  TempDir out;
  const std::string snap = out.path() + "/snap";

  LiveHost live;
  RecordingHost recorder(live);
  const Facts recorded = run_probes(recorder, ProbeOptions{});
  REQUIRE(recorded.cuda);
  REQUIRE(recorded.cuda->devices.size() == 2);
  auto written = recorder.write_snapshot(snap, "fake libcuda, two GPUs");
  INFO((written ? "" : written.problem().where + ": " + written.problem().detail));
  REQUIRE(written);

  // The isolated call's answer is in the manifest, under its key.
  std::ifstream mf(snap + "/.gpucheck/manifest.json");
  REQUIRE(mf);
  const auto manifest = nlohmann::json::parse(mf);
  REQUIRE(manifest.contains("calls"));
  REQUIRE(manifest["calls"].contains("cuda-driver-api"));
  CHECK(manifest["calls"]["cuda-driver-api"].contains("output"));

  // Replayed without the fake: nothing is loaded, the answer comes from the file.
  ScopedEnv gone("GPUCHECK_FAKE_CUDA", out.path() + "/no-such-file.txt");
  auto host = open_host(snap);
  REQUIRE(host);
  CHECK_FALSE((*host)->is_live());
  const Facts replayed = run_probes(**host, ProbeOptions{});
  const auto a = to_json(recorded)["cuda_driver_api"];
  const auto b = to_json(replayed)["cuda_driver_api"];
  CHECK(a.dump(2) == b.dump(2));
  CHECK(a["devices"].size() == 2);
  CHECK(to_json(replayed)["nvidia_driver"]["libcuda"] == to_json(recorded)["nvidia_driver"]["libcuda"]);
}
