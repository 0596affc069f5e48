// gpucheck's own JSON read back: every golden fixture imports and renders to
// the same bytes; other schemas and bad input are refused with the path.
#include <catch2/catch.hpp>
#include <filesystem>
#include <regex>
#include <tuple>

#include "importers/import_report.hpp"
#include "report/reports.hpp"
#include "test_support.hpp"

using namespace gpucheck;
namespace fs = std::filesystem;

TEST_CASE("every golden facts JSON imports and renders to the same bytes", "[importers][json]") {
  int n = 0;
  for (auto& e : fs::directory_iterator(gpucheck::test::source_path("tests/fixtures/golden"))) {
    if (e.path().extension() != ".json") continue;
    INFO(e.path().filename().string());
    const auto golden = gpucheck::test::read_file(e.path().string());
    // The golden's own gpucheck_version, read independently of the importer.
    std::smatch m;
    REQUIRE(std::regex_search(golden, m, std::regex(R"re("gpucheck_version": "([^"]*)")re")));
    auto imported = import_report(golden, e.path().string());
    if (!imported) FAIL(imported.problem().detail);
    CHECK(imported->format == ReportFormat::gpucheck_json);
    CHECK(render_facts_json(imported->facts, {false, m[1].str()}) == golden);
    ++n;
  }
  CHECK(n >= 6);
}

TEST_CASE("a facts JSON of another schema version is refused", "[importers][json]") {
  auto r = import_report(R"({"schema": "gpucheck.facts/2", "system": {}})", "new.json");
  REQUIRE_FALSE(r);
  CHECK(r.problem().where == "new.json");
  CHECK(r.problem().detail.find("gpucheck.facts/2") != std::string::npos);
  CHECK(r.problem().detail.find("gpucheck.facts/1") != std::string::npos);
}

TEST_CASE("a wrong type in a facts JSON is reported with its JSON path", "[importers][json]") {
  auto golden = gpucheck::test::read_file(gpucheck::test::source_path("tests/fixtures/golden/h100-sxm-8gpu.json"));
  const auto at = golden.find("\"memory_total_mib\": ");
  REQUIRE(at != std::string::npos);
  golden.insert(at + 20, "\"");
  golden.insert(golden.find_first_of(",\n", at + 21), "\"");
  auto r = import_report(golden, "h100.json");
  REQUIRE_FALSE(r);
  CHECK(r.problem().reason == Reason::malformed);
  CHECK(r.problem().detail.find("nvidia_smi.gpus[0].memory_total_mib: expected an integer or null, found string") !=
        std::string::npos);
}

TEST_CASE("a word outside its vocabulary in a facts JSON is refused with the words expected", "[importers][json]") {
  const auto golden = gpucheck::test::read_file(gpucheck::test::source_path("tests/fixtures/golden/h100-sxm-8gpu.json"));
  for (const auto& [from, to, says] : std::vector<std::tuple<std::string, std::string, std::string>>{
           {"\"vendor\": \"nvidia\"", "\"vendor\": \"intel\"", "pci[0].vendor: expected one of nvidia, amd, found \"intel\""},
           {"\"kind\": \"gpu\"", "\"kind\": \"GPU\"", ".kind: expected one of gpu, nvswitch, found \"GPU\""}}) {
    INFO(to);
    std::string text = golden;
    const auto at = text.find(from);
    REQUIRE(at != std::string::npos);
    text.replace(at, from.size(), to);
    auto r = import_report(text, "h100.json");
    REQUIRE_FALSE(r);
    CHECK(r.problem().reason == Reason::malformed);
    CHECK_THAT(r.problem().detail, Catch::Contains(says));
  }
}

TEST_CASE("truncated gpucheck JSON, empty and binary input are refused, other text is read", "[importers]") {
  // Other JSON is text like any paste: read, nothing in it recognised.
  auto other = import_report(R"({"name": "something else"})", "x.json");
  REQUIRE(other);
  REQUIRE(other->facts.report);
  CHECK(other->facts.report->blocks.empty());
  CHECK(other->facts.report->unread_total == 1);

  auto cut = import_report(R"({"schema": "gpucheck.facts/1", "system": {"hostname": )", "cut.json");
  REQUIRE_FALSE(cut);
  CHECK(cut.problem().detail.find("not valid JSON: line ") != std::string::npos);

  auto empty = import_report(" \n\t\n", "empty.txt");
  REQUIRE_FALSE(empty);
  CHECK(empty.problem().where == "empty.txt");
  CHECK(empty.problem().detail.find("empty") != std::string::npos);

  const std::string binary("\x7f" "ELF\x02\x01\x01\x00\x00\x00", 10);
  auto bin = import_report(binary, "a.out");
  REQUIRE_FALSE(bin);
  CHECK(bin.problem().detail == "is an ELF executable or library, not text");
  // Mostly control bytes: not text either, and where the first one is.
  auto noise = import_report(std::string(64, '\x01') + "GPU 0", "noise.bin");
  REQUIRE_FALSE(noise);
  CHECK(noise.problem().detail.find("is binary data, not text (64 control bytes, the first byte 0x01 at line 1, column 1)") !=
        std::string::npos);
}

TEST_CASE("kernel-check facts survive a JSON round trip (synthetic values)", "[importers][json]") {
  const auto golden = gpucheck::test::read_file(gpucheck::test::source_path("tests/fixtures/golden/h100-sxm-8gpu.json"));
  auto base = import_report(golden, "h100.json");
  if (!base) FAIL(base.problem().detail);
  Facts f = base.value().facts;
  KernelFacts k;
  k.driver_version = "12.4";
  GpuKernelFacts g;
  g.ordinal = 0;
  g.vendor = PciVendor::nvidia;
  g.status = GpuRunStatus::ran;
  g.child_restarts = 1;
  KernelCheck c;
  c.precision = "bf16";
  c.status = StepStatus::passed;
  c.expected = true;
  c.expected_source = "matrix";
  c.elements_checked = 65536;
  c.tflops = 612.5;
  g.checks.push_back(c);
  g.bandwidth.push_back(BandwidthCheck{"device_copy", StepStatus::passed, std::nullopt, 1u << 30, 2900.25, 3350.0, "matrix", 0.8657, true});
  SustainedRun s;
  s.precision = "fp16";
  s.duration_s = 30;
  s.samples.push_back(SustainedSample{1.5, 700.0, 1980, 2619, 61, 690.5, 4});
  g.sustained = s;
  k.gpus.push_back(g);
  f.kernels = k;
  const auto once = render_facts_json(f, {false, "test"});
  auto again = import_report(once, "k.json");
  if (!again) FAIL(again.problem().detail);
  CHECK(render_facts_json(again->facts, {false, "test"}) == once);
  REQUIRE(again->facts.kernels);
  CHECK(again->facts.kernels->gpus.at(0).sustained->samples.at(0).throttle_reasons == 4u);
}

TEST_CASE("a kernel check's status outside the vocabulary is refused with the words expected", "[importers][json][bad-input]") {
  const auto golden = gpucheck::test::read_file(gpucheck::test::source_path("tests/fixtures/golden/h100-sxm-8gpu.json"));
  auto base = import_report(golden, "h100.json");
  REQUIRE(base);
  Facts f = base.value().facts;
  KernelFacts k;
  GpuKernelFacts g;
  KernelCheck c;
  c.precision = "fp32";
  c.status = StepStatus::passed;
  g.checks.push_back(c);
  k.gpus.push_back(g);
  f.kernels = k;
  std::string text = render_facts_json(f, {false, "test"});
  const auto at = text.find("\"status\": \"passed\"");
  REQUIRE(at != std::string::npos);
  text.replace(at, std::string("\"status\": \"passed\"").size(), "\"status\": \"mostly\"");
  auto r = import_report(text, "k.json");
  REQUIRE_FALSE(r);
  CHECK_THAT(r.problem().detail, Catch::Contains("status"));
  CHECK_THAT(r.problem().detail, Catch::Contains("expected one of passed, failed"));
  CHECK_THAT(r.problem().detail, Catch::Contains("\"mostly\""));
}
