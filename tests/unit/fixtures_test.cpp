// The fixture hosts (tests/fixtures/hosts/*, each with a note on where it
// came from): their golden JSON, snapshot round trips, and the 8-GPU H100
// node checked against its raw nvidia-smi capture read independently here.
#include <catch2/catch.hpp>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>

#include "host/hosts.hpp"
#include "probe.hpp"
#include "report/reports.hpp"
#include "test_support.hpp"

using namespace gpucheck;
using gpucheck::test::TempDir;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

const std::string kHosts = gpucheck::test::source_path("tests/fixtures/hosts");

std::vector<std::string> fixture_names() {
  std::vector<std::string> names;
  for (auto& e : fs::directory_iterator(kHosts))
    if (e.is_directory()) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

std::string probe_json(const std::string& root) {
  auto host = open_host(root);
  REQUIRE(host);
  return render_facts_json(run_probes(**host, {}), {false, GPUCHECK_VERSION});
}

}  // namespace

TEST_CASE("there are fixture hosts, each with a note", "[fixtures]") {
  const auto names = fixture_names();
  CHECK(names.size() >= 6);
  for (auto& n : names) {
    INFO(n);
    CHECK(fs::exists(kHosts + "/" + n + ".md"));
    CHECK(fs::exists(gpucheck::test::source_path("tests/fixtures/golden/" + n + ".json")));
  }
}

TEST_CASE("every fixture probes to its golden JSON", "[fixtures]") {
  for (auto& n : fixture_names()) {
    INFO("fixture " << n << " (regenerate deliberately with tests/fixtures/regen-golden.sh)");
    const auto golden = gpucheck::test::read_file(gpucheck::test::source_path("tests/fixtures/golden/" + n + ".json"));
    CHECK(probe_json(kHosts + "/" + n) == golden);
  }
}

TEST_CASE("a snapshot of every fixture replays to the same JSON", "[fixtures][snapshot]") {
  for (auto& n : fixture_names()) {
    INFO("fixture " << n);
    TempDir t;
    auto host = open_host(kHosts + "/" + n);
    REQUIRE(host);
    RecordingHost rec(**host);
    run_probes(rec, {});
    auto written = rec.write_snapshot(t.str() + "/snap", "re-recorded " + n);
    REQUIRE(written);
    CHECK(probe_json(written->dir) == probe_json(kHosts + "/" + n));
  }
}

TEST_CASE("8-GPU H100 node: the facts are exactly those of the raw capture", "[fixtures][h100]") {
  const std::string root = kHosts + "/h100-sxm-8gpu";
  const auto j = json::parse(probe_json(root));
  // The raw nvidia-smi -q capture, read here with plain regexes, not the product's parser.
  const auto raw = gpucheck::test::read_file(root + "/.gpucheck/commands/nvidia-smi_-q.out");
  std::smatch m;
  REQUIRE(std::regex_search(raw, m, std::regex(R"(Driver Version\s+: (\S+))")));
  const std::string driver = m[1];
  auto groups = [&](const char* pattern, int group) {
    std::vector<std::string> out;
    const std::regex re(pattern);
    for (std::sregex_iterator it(raw.begin(), raw.end(), re), e; it != e; ++it) out.push_back((*it)[group]);
    return out;
  };
  const auto buses = groups(R"(\nGPU ([0-9A-Fa-f:.]+)\n)", 1);
  const char* fabric = R"(Fabric\n\s+State\s+: ([^\n]+)\n\s+Status\s+: ([^\n]+))";
  const auto states = groups(fabric, 1), statuses = groups(fabric, 2);
  const auto idle = groups(R"(Clocks Event Reasons\n\s+Idle\s+: ([^\n]+))", 1);
  const char* gen = R"(PCIe Generation\n\s+Max\s+: (\d+)\n\s+Current\s+: (\d+))";
  const auto gen_max = groups(gen, 1), gen_cur = groups(gen, 2);
  const char* width = R"(Link Width\n\s+Max\s+: (\d+)x\n\s+Current\s+: (\d+)x)";
  const auto width_max = groups(width, 1), width_cur = groups(width, 2);
  REQUIRE(buses.size() == 8);
  REQUIRE(states.size() == 8);
  REQUIRE(gen_max.size() == 8);

  CHECK(j["nvidia_driver"]["kernel_module"]["version"] == driver);
  CHECK(j["nvidia_smi"]["driver_version"] == driver);
  CHECK(j["nvidia_driver"]["libcuda"]["version"] == driver);
  const auto& devs = j["cuda_driver_api"]["devices"];
  REQUIRE(devs.size() == 8);
  for (auto& d : devs) CHECK(d["compute_capability"] == "9.0");
  const auto& gpus = j["nvidia_smi"]["gpus"];
  REQUIRE(gpus.size() == 8);
  int pci_gpus = 0;
  for (auto& d : j["pci"]) pci_gpus += d["kind"] == "gpu" ? 1 : 0;
  CHECK(pci_gpus == 8);
  for (std::size_t i = 0; i < 8; ++i) {
    INFO("GPU " << buses[i]);
    const auto& g = gpus[i];
    std::string bus = buses[i].substr(4);  // 00000000:18:00.0 -> 0000:18:00.0
    std::transform(bus.begin(), bus.end(), bus.begin(), ::tolower);
    CHECK(g["pci_bus_id"] == bus);
    CHECK(devs[i]["pci_bus_id"] == bus);
    CHECK(g["pcie"]["gen_max"] == std::stoi(gen_max[i]));
    CHECK(g["pcie"]["gen_current"] == std::stoi(gen_cur[i]));
    CHECK(g["pcie"]["width_max"] == std::stoi(width_max[i]));
    CHECK(g["pcie"]["width_current"] == std::stoi(width_cur[i]));
    CHECK(g["fabric"]["state"] == states[i]);
    CHECK(g["fabric"]["status"] == statuses[i]);
    CHECK(g["clock_event_reasons"]["gpu_idle"] == (idle[i] == "Active"));
    // The sysfs link state agrees with what nvidia-smi saw.
    for (auto& d : j["pci"])
      if (d["address"] == bus) CHECK(d["link"]["current_gen"] == std::stoi(gen_cur[i]));
  }
  bool fm_running = false;
  for (auto& s : j["services"])
    if (s["name"] == "nvidia-fabricmanager") fm_running = s["running"];
  CHECK(fm_running);
}

TEST_CASE("driver-mismatch fixture: both versions are kept", "[fixtures]") {
  const auto j = json::parse(probe_json(kHosts + "/driver-mismatch"));
  const auto kernel = j["nvidia_driver"]["kernel_module"]["version"].get<std::string>();
  const auto user = j["nvidia_driver"]["libcuda"]["version"].get<std::string>();
  CHECK(kernel != user);
  CHECK(j["cuda_driver_api"]["init_code"] == 803);
  CHECK(j["nvidia_smi"].is_null());
  bool smi_failed = false;
  for (auto& n : j["notes"])
    if (n["subject"] == "nvidia_smi" && n["reason"] == "failed")
      smi_failed = n["detail"].get<std::string>().find("Driver/library version mismatch") != std::string::npos;
  CHECK(smi_failed);
}
