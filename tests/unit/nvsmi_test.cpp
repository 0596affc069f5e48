// nvidia-smi reports of several driver generations (real captures, see
// tests/data/SOURCES.md): XML from DTD-less 418 to v13 (590), and -q text.
#include <catch2/catch.hpp>

#include "parse/nvsmi.hpp"
#include "util/pci_address.hpp"
#include "test_support.hpp"

using namespace gpucheck;
using gpucheck::test::data;

TEST_CASE("bus ids are normalised to sysfs spelling", "[nvsmi]") {
  CHECK(normalize_pci_bus_id("00000000:18:00.0") == "0000:18:00.0");
  CHECK(normalize_pci_bus_id("00000000:2A:00.0") == "0000:2a:00.0");
  CHECK(normalize_pci_bus_id("0000:01:00.0") == "0000:01:00.0");
  CHECK(normalize_pci_bus_id(" 0000:01:00.0\n") == "0000:01:00.0");
  // A domain above 0xffff keeps its digits: it is another device.
  CHECK(normalize_pci_bus_id("00010000:18:00.0") == "10000:18:00.0");
  CHECK(normalize_pci_bus_id("CUDA device 3") == "cuda device 3");
  CHECK(normalize_pci_bus_id("") == "");
}

TEST_CASE("A100 XML, DTD v12 (driver 535)", "[nvsmi]") {
  auto f = parse_nvsmi_xml(data("nvsmi/a100-sxm4-80gb_535.xml"));
  REQUIRE(f);
  CHECK(f->dtd == "v12");
  CHECK(f->driver_version == "535.54.03");
  CHECK(f->cuda_version == "12.2");
  REQUIRE(f->gpus.size() == 1);
  const auto& g = f->gpus[0];
  CHECK(g.pci_bus_id == "0000:01:00.0");
  CHECK(g.product_name == "NVIDIA A100-SXM4-80GB");
  CHECK(g.architecture == "Ampere");
  CHECK(g.uuid == "GPU-513536b6-7d19-9063-b049-1e69664bb298");
  CHECK(g.mig_mode_current == "Enabled");
  CHECK(g.ecc_mode_current == "Enabled");
  CHECK(g.ecc_volatile.uncorrected == 0);
  CHECK(g.pcie_gen_current == 4);
  CHECK(g.pcie_gen_max == 4);
  CHECK(g.pcie_width_current == 16);
  CHECK(g.pcie_width_max == 16);
  CHECK(g.power_draw_w == Approx(67.03));
  CHECK(g.power_limit_w == Approx(500.0));
  CHECK(g.temperature_c == 27);
  CHECK(g.temperature_slowdown_c == 89);
  CHECK(g.clock_sm_max_mhz == 1410);
  CHECK(g.memory_total_mib == 81920);
  CHECK(g.clock_event_reasons.size() == 9);
  CHECK(g.clock_event_reasons.at("hw_slowdown") == false);
  CHECK_FALSE(g.fabric_state);  // "N/A" on a non-NVSwitch A100 is unknown, not a state
  CHECK_FALSE(g.remapped_rows_pending);  // <remapped_rows>N/A</remapped_rows>
}

TEST_CASE("A10G XML, DTD v11 (driver 515): throttle reasons and old power block", "[nvsmi]") {
  auto f = parse_nvsmi_xml(data("nvsmi/a10g_515.xml"));
  REQUIRE(f);
  CHECK(f->dtd == "v11");
  const auto& g = f->gpus.at(0);
  CHECK(g.clock_event_reasons.at("gpu_idle") == true);
  CHECK(g.pcie_gen_current == 1);
  CHECK(g.pcie_width_current == 8);
  CHECK(g.pcie_width_max == 16);
  CHECK(g.power_draw_w == Approx(25.58));
  CHECK(g.temperature_c == 17);
}

TEST_CASE("V100 XML, DTD v11 (driver 460): single/double-bit ECC totals, retired pages", "[nvsmi]") {
  auto f = parse_nvsmi_xml(data("nvsmi/tesla-v100-pcie_460.xml"));
  REQUIRE(f);
  const auto& g = f->gpus.at(0);
  CHECK(g.ecc_volatile.corrected == 0);
  CHECK(g.ecc_volatile.uncorrected == 0);
  CHECK(g.retired_pages_single_bit == 0);
  CHECK(g.retired_pages_double_bit == 0);
  CHECK(g.retired_pages_pending == false);
  CHECK(g.power_draw_w == Approx(170.16));
  CHECK(g.power_limit_w == Approx(250.0));
}

TEST_CASE("eight V100S in one XML (driver 460)", "[nvsmi]") {
  auto f = parse_nvsmi_xml(data("nvsmi/tesla-v100s-pcie-8gpu_460.xml"));
  REQUIRE(f);
  REQUIRE(f->gpus.size() == 8);
  CHECK(f->gpus[0].pci_bus_id == "0000:00:0d.0");
  CHECK(f->gpus[7].pci_bus_id == "0000:00:14.0");
  // Only the GPUs at 00:10.0 and 00:13.0 were power capped in this capture.
  int capped = 0;
  for (auto& g : f->gpus) capped += g.clock_event_reasons.at("sw_power_cap") ? 1 : 0;
  CHECK(capped == 2);
  CHECK(f->gpus[3].clock_event_reasons.at("sw_power_cap") == true);
  CHECK(f->gpus[6].clock_event_reasons.at("sw_power_cap") == true);
  CHECK(f->gpus[0].power_draw_w == Approx(232.80));
  CHECK(f->gpus[1].power_draw_w == Approx(152.03));
}

TEST_CASE("XML without DOCTYPE (driver 418)", "[nvsmi]") {
  auto f = parse_nvsmi_xml(data("nvsmi/quadro-p400_418.xml"));
  REQUIRE(f);
  CHECK_FALSE(f->dtd);
  CHECK(f->driver_version == "418.43");
  CHECK(f->gpus.at(0).pcie_gen_max == 3);
  CHECK_FALSE(f->gpus.at(0).power_draw_w);  // N/A stays unknown
}

TEST_CASE("DTD v12/v13 (drivers 570, 590): clocks_event_reasons and instant power draw", "[nvsmi]") {
  auto f570 = parse_nvsmi_xml(data("nvsmi/rtx-3060_570.xml"));
  REQUIRE(f570);
  CHECK(f570->gpus.at(0).clock_event_reasons.at("gpu_idle") == true);
  CHECK(f570->gpus.at(0).power_draw_w == Approx(11.63));
  CHECK(f570->gpus.at(0).power_limit_w == Approx(170.0));
  auto f590 = parse_nvsmi_xml(data("nvsmi/rtx-3090_590.xml"));
  REQUIRE(f590);
  CHECK(f590->dtd == "v13");
  CHECK(f590->gpus.at(0).clock_event_reasons.at("sw_power_cap") == true);
  CHECK_FALSE(f590->gpus.at(0).ecc_volatile.uncorrected);  // all N/A on GeForce
}

TEST_CASE("a cut-down v10 fragment gives what it has", "[nvsmi]") {
  auto f = parse_nvsmi_xml(data("nvsmi/gtx-1070-ti_v10-fragment.xml"));
  REQUIRE(f);
  CHECK_FALSE(f->driver_version);
  CHECK(f->gpus.at(0).pcie_gen_current == 1);
  CHECK_FALSE(f->gpus.at(0).pcie_gen_max);
}

TEST_CASE("nvidia-smi -q text, 4x A100 (driver 555)", "[nvsmi]") {
  auto f = parse_nvsmi_text(data("nvsmi/a100-sxm4-80gb-4gpu_555.txt"));
  REQUIRE(f);
  CHECK(f->driver_version == "555.42.02");
  REQUIRE(f->gpus.size() == 4);
  const auto& g = f->gpus[0];
  CHECK(g.product_name == "NVIDIA A100-SXM4-80GB");
  CHECK(g.pcie_gen_max == 4);
  CHECK(g.pcie_width_max == 16);
  CHECK(g.power_draw_w == Approx(59.77));
  CHECK(g.clock_event_reasons.count("hw_thermal_slowdown") == 1);  // nested under HW Slowdown in text
  CHECK(g.clock_event_reasons.count("gpu_idle") == 1);
}

TEST_CASE("nvidia-smi -q text: GH200 with an aggregate DRAM uncorrectable error and a remapped row", "[nvsmi]") {
  auto f = parse_nvsmi_text(data("nvsmi/gh200-480gb_550.txt"));
  REQUIRE(f);
  const auto& g = f->gpus.at(0);
  CHECK(g.ecc_aggregate.uncorrected == 1);
  CHECK(g.ecc_volatile.uncorrected == 0);
  REQUIRE(g.remapped_rows_uncorrectable);
  CHECK(*g.remapped_rows_uncorrectable >= 1);
}

TEST_CASE("nvidia-smi -q text of an old driver (470, GTX 680)", "[nvsmi]") {
  auto f = parse_nvsmi_text(data("nvsmi/gtx-680_470.txt"));
  REQUIRE(f);
  CHECK(f->driver_version == "470.256.02");
  CHECK(f->gpus.size() == 1);
  // "Clocks Throttle Reasons : N/A" on this Kepler card: nothing known, nothing invented.
  CHECK(f->gpus[0].clock_event_reasons.empty());
  CHECK(f->gpus[0].product_name == "NVIDIA GeForce GTX 680");
}

TEST_CASE("broken nvidia-smi output is a clear error, never a crash", "[nvsmi][bad-input]") {
  const auto full = data("nvsmi/a100-sxm4-80gb_535.xml");
  SECTION("truncated XML") {
    auto f = parse_nvsmi_xml(full.substr(0, full.size() / 2));
    REQUIRE_FALSE(f);
    CHECK(f.problem().reason == Reason::malformed);
    CHECK_THAT(f.problem().detail, Catch::Contains("at byte"));
  }
  SECTION("not nvidia-smi XML") {
    auto f = parse_nvsmi_xml("<?xml version=\"1.0\"?><other/>");
    REQUIRE_FALSE(f);
    CHECK_THAT(f.problem().detail, Catch::Contains("nvidia_smi_log"));
  }
  SECTION("binary garbage") {
    std::string junk(4096, '\0');
    for (std::size_t i = 0; i < junk.size(); ++i) junk[i] = static_cast<char>((i * 131) & 0xff);
    CHECK_FALSE(parse_nvsmi_xml(junk));
    CHECK_FALSE(parse_nvsmi_text(junk));
  }
  SECTION("empty") {
    CHECK_FALSE(parse_nvsmi_xml(""));
    CHECK_FALSE(parse_nvsmi_text(""));
  }
  SECTION("the driver's failure message") {
    auto f = parse_nvsmi_text("Failed to initialize NVML: Driver/library version mismatch\n");
    REQUIRE_FALSE(f);
    CHECK(f.problem().reason == Reason::malformed);
  }
}

TEST_CASE("R610's names for the driver and CUDA versions in -q and -q -x (synthetic renames)", "[nvsmi]") {
  // R610's table says "KMD Version" and "CUDA UMD Version"; the -q forms
  // may follow. These inputs are real captures with only those names
  // replaced, so both spellings are read the same.
  auto rename = [](std::string text, const std::string& from, const std::string& to) {
    for (auto at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) text.replace(at, from.size(), to);
    return text;
  };
  auto q = data("nvsmi/a100-sxm4-80gb-4gpu_555.txt");
  q = rename(rename(q, "Driver Version", "KMD Version"), "CUDA Version", "CUDA UMD Version");
  auto t = parse_nvsmi_text(q);
  REQUIRE(t);
  CHECK(t->driver_version == "555.42.02");
  CHECK(t->cuda_version == "12.5");
  auto x = data("nvsmi/rtx-3090_590.xml");
  x = rename(rename(x, "driver_version>", "kmd_version>"), "cuda_version>", "cuda_umd_version>");
  auto f = parse_nvsmi_xml(x);
  REQUIRE(f);
  CHECK(f->driver_version == "590.44.01");
  CHECK(f->cuda_version == "13.1");
}
