// The plain nvidia-smi table: real captures from public issue threads
// (tests/data/reports/SOURCES.md), driver 325 to 610, Linux and Windows.
// Expected values are read from each file with plain regexes, not the parser.
#include <catch2/catch.hpp>
#include <filesystem>
#include <regex>

#include "parse/nvsmi_table.hpp"
#include "test_support.hpp"

using namespace gpucheck;
namespace fs = std::filesystem;

namespace {

struct Row {
  std::string index, name, mode, bus;
};

std::vector<Row> rows(const std::string& text) {
  std::vector<Row> out;
  const std::regex re(R"(\n\|\s+(\d+)\s+(.+?)\s+(On|Off|WDDM|TCC)\s+\|\s+([0-9A-Fa-f]+:[0-9A-Fa-f]{2}:[0-9A-Fa-f]{2}\.[0-7]))");
  for (std::sregex_iterator it(text.begin(), text.end(), re), e; it != e; ++it)
    out.push_back({(*it)[1], (*it)[2], (*it)[3], (*it)[4]});
  return out;
}

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

}  // namespace

TEST_CASE("every captured nvidia-smi table parses to its banner and GPU rows", "[nvsmi_table]") {
  int files = 0;
  for (auto& e : fs::directory_iterator(gpucheck::test::source_path("tests/data/reports/nvsmi_table"))) {
    const auto text = gpucheck::test::read_file(e.path().string());
    INFO(e.path().filename().string());
    std::smatch m;
    // R610 renamed the banner's fields: "KMD Version", "CUDA UMD Version".
    REQUIRE(std::regex_search(text, m, std::regex(R"((?:Driver|KMD) Version: (\S+))")));
    const std::string driver = m[1];
    std::optional<std::string> cuda;
    if (std::regex_search(text, m, std::regex(R"(CUDA (?:UMD )?Version: (\S+))"))) cuda = m[1];
    const auto expected = rows(text);
    REQUIRE(!expected.empty());

    REQUIRE(looks_like_nvsmi_table(text));
    auto f = parse_nvsmi_table(text);
    REQUIRE(f);
    CHECK(f->driver_version == driver);
    CHECK(f->cuda_version == cuda);
    REQUIRE(f->gpus.size() == expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i) {
      const auto& g = f->gpus[i];
      CHECK(g.product_name == expected[i].name);
      // The table's bus id, in sysfs's spelling: 8-digit domains lose their leading zeros.
      std::string bus = lower(expected[i].bus);
      if (bus.find(':') == 8) bus = bus.substr(4);
      CHECK(g.pci_bus_id == bus);
      if (expected[i].mode == "On") CHECK(g.persistence_mode == "Enabled");
      if (expected[i].mode == "Off") CHECK(g.persistence_mode == "Disabled");
      if (expected[i].mode == "WDDM") CHECK_FALSE(g.persistence_mode);
    }
    ++files;
  }
  CHECK(files >= 8);
}

TEST_CASE("nvidia-smi table: the second and third rows of a GPU", "[nvsmi_table]") {
  auto k80 = parse_nvsmi_table(gpucheck::test::data("reports/nvsmi_table/k80_430.50.txt"));
  REQUIRE(k80);
  REQUIRE(k80->gpus.size() == 1);
  const auto& g = k80->gpus[0];
  CHECK(g.pci_bus_id == "e5f5:00:00.0");
  CHECK(g.temperature_c == 50);
  CHECK(g.power_draw_w == Approx(59));
  CHECK(g.power_limit_w == Approx(149));
  CHECK(g.memory_total_mib == 11441);
  CHECK(g.compute_mode == "Default");
  CHECK(g.ecc_mode_current == "Enabled");
  CHECK(g.ecc_volatile.uncorrected == 0);
  CHECK_FALSE(g.mig_mode_current);  // no MIG column before driver 450

  auto mig = parse_nvsmi_table(gpucheck::test::data("reports/nvsmi_table/a100-sxm-mig_510.47.03.txt"));
  REQUIRE(mig);
  REQUIRE(mig->gpus.size() == 2);
  CHECK(mig->gpus[0].mig_mode_current == "Disabled");
  CHECK(mig->gpus[1].mig_mode_current == "Enabled");
  CHECK(mig->gpus[0].product_name == "NVIDIA A100-SXM...");  // truncated by nvidia-smi, kept as printed

  // Driver 325 printed MB, not MiB: the total stays unknown rather than guessed.
  auto titan = parse_nvsmi_table(gpucheck::test::data("reports/nvsmi_table/gtx-titan-3gpu_325.15.txt"));
  REQUIRE(titan);
  CHECK_FALSE(titan->cuda_version);
  CHECK_FALSE(titan->gpus[0].memory_total_mib);
  CHECK_FALSE(titan->gpus[0].ecc_mode_current);  // "N/A"
}

TEST_CASE("nvidia-smi table: bad input", "[nvsmi_table]") {
  CHECK_FALSE(parse_nvsmi_table("no table here\n"));
  const std::string bad =
      "| NVIDIA-SMI 535.104.05   Driver Version: 535.104.05   CUDA Version: 12.2 |\n"
      "|===+===+===|\n"
      "|   0  Some GPU  On  | not-a-bus-id Off | 0 |\n";
  auto r = parse_nvsmi_table(bad);
  REQUIRE_FALSE(r);
  CHECK(r.problem().where == "line 3");
  CHECK_FALSE(parse_nvsmi_table(std::string("\x00\x01\x02", 3)));
}

TEST_CASE("nvidia-smi table: N/A beside a value keeps the value", "[nvsmi_table]") {
  // GTX 1050 Ti: "N/A /  75W" (no draw sensor, a 75 W limit).
  auto ti = parse_nvsmi_table(gpucheck::test::data("reports/nvsmi_table/gtx-1050-ti_535.161.07.txt"));
  REQUIRE(ti);
  REQUIRE(ti->gpus.size() == 1);
  CHECK_FALSE(ti->gpus[0].power_draw_w);
  CHECK(ti->gpus[0].power_limit_w == Approx(75));
  CHECK(ti->gpus[0].compute_mode == "Default");
  // GTX 680: GPU-Util "N/A" before the compute mode, and "N/A /  N/A" power.
  auto gtx680 = parse_nvsmi_table(gpucheck::test::data("reports/nvsmi_table/gtx-680_470.256.02.txt"));
  REQUIRE(gtx680);
  REQUIRE(gtx680->gpus.size() == 1);
  CHECK(gtx680->gpus[0].compute_mode == "Default");
  CHECK_FALSE(gtx680->gpus[0].power_limit_w);
}

TEST_CASE("nvidia-smi table: CUDA \"Not Found\" is no CUDA version (synthetic banner)", "[nvsmi_table][bad-input]") {
  // As nvidia-smi prints where libcuda does not load.
  auto f = parse_nvsmi_table(
      "| NVIDIA-SMI 535.161.07             Driver Version: 535.161.07   CUDA Version: Not Found |\n"
      "|=========================================+======================+======================|\n");
  REQUIRE(f);
  CHECK(f->driver_version == "535.161.07");
  CHECK_FALSE(f->cuda_version);
}
