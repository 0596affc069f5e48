// `gpucheck fleet`'s library: reading a node's report (the fixtures' real
// probe reports, and bytes that are not one), folding a fleet into its skew
// and failing nodes, and the three renderings.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "fleet/fleet_summary.hpp"
#include "report/fleet_report.hpp"
#include "test_support.hpp"

using namespace gpucheck;
using gpucheck::test::read_file;
using gpucheck::test::source_path;

namespace {

std::string golden(const std::string& name) { return read_file(source_path("tests/fixtures/golden/" + name + ".json")); }

const std::optional<std::string>& field(const NodeReport& n, SkewField f) { return n.fields[index_of(f)]; }

NodeReport read_ok(const std::string& text, const std::string& name = "node.json") {
  auto r = read_node_report(text, name);
  INFO((r ? "" : r.problem().detail));
  REQUIRE(r);
  return std::move(r).value();
}

std::string problem_of(const std::string& text) {
  auto r = read_node_report(text, "bad.json");
  REQUIRE_FALSE(r);
  CHECK(r.problem().reason == Reason::malformed);
  CHECK(r.problem().where == "bad.json");
  return r.problem().detail;
}

// A node that says only what a test sets.
FleetEntry node(std::string name, std::initializer_list<std::pair<SkewField, std::string>> fields, bool failed = false,
                std::vector<NodeFinding> findings = {}) {
  NodeReport n;
  n.kind = NodeKind::check;
  n.failed = failed;
  n.findings = std::move(findings);
  for (const auto& [f, v] : fields) n.fields[index_of(f)] = v;
  return {std::move(name), std::move(n)};
}

const FieldSkew& skew(const FleetSummary& s, SkewField f) { return s.skew[index_of(f)]; }

}  // namespace

TEST_CASE("fleet: a probe report's stack, from the H100 fixture's golden JSON", "[fleet]") {
  const NodeReport n = read_ok(golden("h100-sxm-8gpu"));
  CHECK(n.kind == NodeKind::probe);
  CHECK_FALSE(n.failed);
  CHECK(field(n, SkewField::driver) == "565.57.01");
  CHECK(field(n, SkewField::cuda_driver) == "12.7");
  CHECK(field(n, SkewField::gpu_model) == "NVIDIA H100 80GB HBM3");
  CHECK(field(n, SkewField::gpu_count) == "8");
  CHECK(field(n, SkewField::vbios) == "96.00.74.00.01");
  CHECK(field(n, SkewField::pcie_width) == "x16");
  CHECK(field(n, SkewField::ecc_mode) == "Enabled");
  CHECK_FALSE(field(n, SkewField::cuda_toolkit));  // the fixture has none: unknown, not ""
  CHECK_FALSE(field(n, SkewField::torch));
}

TEST_CASE("fleet: the software fields, from real Python and NGC fixtures", "[fleet]") {
  const NodeReport venv = read_ok(golden("venv-torch-cu121"));
  CHECK(field(venv, SkewField::torch) == "2.1.0+cu121");
  CHECK(field(venv, SkewField::cudnn) == "8.9.7.29");
  CHECK(field(venv, SkewField::nccl) == "2.18.1");
  CHECK(field(venv, SkewField::gpu_count) == "0");  // no GPU on any source
  const NodeReport ngc = read_ok(golden("ngc-pytorch-24.01"));
  CHECK(field(ngc, SkewField::cuda_toolkit) == "12.3.2");
  CHECK(field(ngc, SkewField::cudnn) == "8.9.7");
  CHECK(field(ngc, SkewField::torch) == "2.2.0a0+81ea7a4");
  // cpu-only lists cuDNN and NCCL entries without a version: unknown, not a value.
  const NodeReport cpu = read_ok(golden("cpu-only"));
  CHECK_FALSE(field(cpu, SkewField::cudnn));
  // GPUs seen by PCI only (the ROCm fixture): vendor:device, as the lock names them.
  const NodeReport mi = read_ok(golden("rocm6-mi300x"));
  REQUIRE(field(mi, SkewField::gpu_model));
  CHECK(field(mi, SkewField::gpu_model)->find("1002:") == 0);
}

TEST_CASE("fleet: a check report's verdict and findings, info findings are dropped", "[fleet]") {
  const std::string facts = golden("driver-mismatch");
  const std::string check = R"({"schema": "gpucheck.check/1", "verdict": "fail", "findings": [
      {"rule": "kernel-userspace-mismatch", "severity": "error", "title": "Kernel module and userspace driver differ"},
      {"rule": "matrix-age", "severity": "info", "title": "old"},
      {"rule": "gpu-outlier-temperature", "severity": "warning", "title": "A GPU stands off"}],
      "facts": )" + facts + "}";
  const NodeReport n = read_ok(check);
  CHECK(n.kind == NodeKind::check);
  CHECK(n.failed);
  REQUIRE(n.findings.size() == 2);
  CHECK(n.findings[0].rule == "kernel-userspace-mismatch");
  CHECK(n.findings[1].severity == "warning");
  CHECK(field(n, SkewField::driver) == "550.54.14");  // from "facts", not the top level
  // No verdict: an error finding fails the node.
  auto no_verdict = check;
  no_verdict.replace(no_verdict.find(R"("verdict": "fail",)"), 18, "");
  CHECK(read_ok(no_verdict).failed);
  auto passing = check;
  passing.replace(passing.find(R"("fail")"), 6, R"("pass")");
  CHECK_FALSE(read_ok(passing).failed);
}

TEST_CASE("fleet: bytes that are not a report are a Problem, never a throw", "[fleet][hostile]") {
  CHECK_THAT(problem_of(""), Catch::Contains("not JSON"));
  CHECK_THAT(problem_of("garbage"), Catch::Contains("not"));
  CHECK_THAT(problem_of("[1, 2]"), Catch::Contains("not a JSON object"));
  CHECK_THAT(problem_of(std::string("\x7f" "ELF\0\0\x01", 7)), Catch::Contains("not"));
  CHECK_THAT(problem_of(R"({"schema": "gpucheck.lock/1"})"), Catch::Contains("not a gpucheck check or probe report"));
  CHECK_THAT(problem_of(R"({"pci": []})"), Catch::Contains("no \"schema\""));
  CHECK_THAT(problem_of(R"({"schema": "gpucheck.check/1", "findings": []})"), Catch::Contains("without its \"facts\""));
  CHECK_THAT(problem_of(R"({"schema": "gpucheck.facts/1", "nvidia_smi": {"gpus": [{"pcie": {"width_current": "wide"}}]}})"),
             Catch::Contains("nvidia_smi.gpus[0].pcie.width_current: expected an integer"));
  CHECK_THAT(problem_of(R"({"schema": "gpucheck.facts/1"} {"more": 1})"), Catch::Contains("more after"));
  CHECK_THAT(problem_of(std::string(100000, '[')), Catch::Contains("not"));
  CHECK_THAT(problem_of("{\"schema\": \"gpucheck.facts/1\", \"x\": \"\xff\xfe\"}"), Catch::Contains("not JSON"));
}

TEST_CASE("fleet: a real report cut anywhere is a Problem", "[fleet][hostile]") {
  const std::string full = golden("a100-sxm4-4gpu");
  REQUIRE(read_node_report(full, "whole.json"));
  std::size_t cuts = 0;
  for (std::size_t n = 0; n + 1 < full.size(); n += 61, ++cuts) {
    INFO("cut at " << n);
    CHECK_FALSE(read_node_report(full.substr(0, n), "cut.json"));
  }
  CHECK(cuts > 200);
}

TEST_CASE("fleet: each field's majority and the nodes off it", "[fleet]") {
  std::vector<FleetEntry> fleet{
      node("n1", {{SkewField::driver, "550.54.14"}, {SkewField::pcie_width, "x16"}}),
      node("n2", {{SkewField::driver, "550.54.14"}, {SkewField::pcie_width, "x16"}}),
      node("n3", {{SkewField::driver, "535.104.05"}, {SkewField::pcie_width, "x16"}}),
      node("n4", {{SkewField::driver, "550.54.14"}, {SkewField::pcie_width, "x8, x16"}}),
      node("n5", {{SkewField::pcie_width, "x16"}}),
  };
  const FleetSummary s = summarize_fleet(fleet);
  const FieldSkew& driver = skew(s, SkewField::driver);
  REQUIRE(driver.majority);
  CHECK(driver.majority->value == "550.54.14");
  CHECK(driver.majority->nodes == std::vector<std::string>{"n1", "n2", "n4"});
  REQUIRE(driver.others.size() == 1);
  CHECK(driver.others[0].value == "535.104.05");
  CHECK(driver.others[0].nodes == std::vector<std::string>{"n3"});
  CHECK(driver.unknown == std::vector<std::string>{"n5"});
  CHECK_FALSE(driver.tie);
  CHECK(skew(s, SkewField::pcie_width).others.at(0).nodes == std::vector<std::string>{"n4"});
  CHECK_FALSE(skew(s, SkewField::nccl).majority);  // no node shows it
  CHECK_FALSE(skew(s, SkewField::nccl).skewed());
  CHECK_FALSE(s.fails());
  CHECK(s.passed == 5);
}

TEST_CASE("fleet: a tie is said, not hidden", "[fleet]") {
  const FleetSummary s = summarize_fleet({node("a", {{SkewField::torch, "2.4.0"}}), node("b", {{SkewField::torch, "2.3.1"}})});
  const FieldSkew& t = skew(s, SkewField::torch);
  CHECK(t.tie);
  CHECK(t.majority->value == "2.3.1");  // the first by text, so the output is stable
  CHECK_THAT(render_fleet_text(s), Catch::Contains("a tie"));
}

TEST_CASE("fleet: nodes failing each finding, an unreadable report fails the run", "[fleet]") {
  const NodeFinding km{"kernel-userspace-mismatch", "Kernel module and userspace driver differ", "error"};
  const NodeFinding hot{"gpu-outlier-temperature", "A GPU stands off", "warning"};
  std::vector<FleetEntry> fleet{node("n2", {}, true, {km, km}),  // one rule on two GPUs: the node once
                                node("n1", {}, true, {km, hot}), node("n3", {}, false, {hot}), node("n4", {})};
  fleet.push_back({"n5", Problem{Reason::malformed, "n5.json", "not JSON: truncated"}});
  const FleetSummary s = summarize_fleet(fleet);
  REQUIRE(s.findings.size() == 2);
  CHECK(s.findings[0].rule == "kernel-userspace-mismatch");  // errors first
  CHECK(s.findings[0].nodes == std::vector<std::string>{"n1", "n2"});
  CHECK(s.findings[1].nodes == std::vector<std::string>{"n1", "n3"});
  CHECK(s.failing_nodes == std::vector<std::string>{"n1", "n2"});
  CHECK(s.failed == 2);
  CHECK(s.passed == 2);
  REQUIRE(s.unreadable.size() == 1);
  CHECK(s.unreadable[0].node == "n5");
  CHECK(s.fails());
  // Unreadable alone fails too: that node is not proven.
  CHECK(summarize_fleet({node("ok", {}), {"bad", Problem{Reason::malformed, "bad", "x"}}}).fails());
}

TEST_CASE("fleet: text, JSON and Markdown say the same", "[fleet][formats]") {
  const NodeFinding km{"kernel-userspace-mismatch", "Kernel | module", "error"};
  const FleetSummary s = summarize_fleet({node("n1", {{SkewField::driver, "550.54.14"}}), node("n2", {{SkewField::driver, "550.54.14"}}),
                                          node("n3|x", {{SkewField::driver, "535.104.05"}}, true, {km}),
                                          {"n4", Problem{Reason::malformed, "n4", "not JSON: cut"}}});
  const std::string text = render_fleet_text(s);
  CHECK_THAT(text, Catch::Contains("4 reports: 2 pass, 1 fail, 1 unreadable: FAIL"));
  CHECK_THAT(text, Catch::Contains("550.54.14 on 2 of 3 nodes"));
  CHECK_THAT(text, Catch::Contains("535.104.05 on 1: n3|x"));
  CHECK_THAT(text, Catch::Contains("n4: not JSON: cut"));

  const auto j = nlohmann::json::parse(render_fleet_json(s, "9.9.9"));
  CHECK(j["schema"] == "gpucheck.fleet/1");
  CHECK(j["verdict"] == "fail");
  CHECK(j["counts"]["unreadable"] == 1);
  CHECK(j["failing_nodes"] == nlohmann::json::array({"n3|x"}));
  CHECK(j["findings"][0]["nodes"] == nlohmann::json::array({"n3|x"}));
  CHECK(j["skew"][0]["field"] == "driver");
  CHECK(j["skew"][0]["majority"]["value"] == "550.54.14");
  CHECK(j["skew"][0]["others"][0]["nodes"][0] == "n3|x");
  CHECK(j["skew"].size() == kSkewFieldCount);

  const std::string md = render_fleet_markdown(s);
  CHECK_THAT(md, Catch::Contains("# gpucheck fleet: FAIL"));
  CHECK_THAT(md, Catch::Contains("Kernel \\| module"));  // a cell cannot be split by a title or node name
  CHECK_THAT(md, Catch::Contains("n3\\|x"));
  CHECK_THAT(md, Catch::Contains("| n4 | not JSON: cut |"));
}

TEST_CASE("fleet: text names at most 50 nodes a line, JSON names all", "[fleet][formats]") {
  std::vector<FleetEntry> fleet;
  for (int i = 0; i < 200; ++i) fleet.push_back(node("n" + std::to_string(1000 + i), {{SkewField::ecc_mode, i < 120 ? "Enabled" : "Disabled"}}));
  const FleetSummary s = summarize_fleet(fleet);
  CHECK_THAT(render_fleet_text(s), Catch::Contains("Disabled on 80: ") && Catch::Contains("and 30 more"));
  CHECK(nlohmann::json::parse(render_fleet_json(s, "x"))["skew"][index_of(SkewField::ecc_mode)]["others"][0]["nodes"].size() == 80);
}
