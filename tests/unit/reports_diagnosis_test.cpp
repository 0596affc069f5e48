// Real collect_env reports from public issue threads (PyTorch, vLLM, …)
// (tests/data/reports/SOURCES.md): `gpucheck check --from` must find the
// diagnosis each thread gave, and read every report of the corpus.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <set>

#include "host/process.hpp"
#include "gpucheck_run.hpp"
#include "test_support.hpp"

using namespace gpucheck;
using nlohmann::json;

TEST_CASE("check --from finds the diagnosis of each real collect_env report's thread", "[rules][reports][cli]") {
  const auto expected = json::parse(test::data("reports/collect_env/expected.json"));
  int diagnosed = 0;
  for (auto& [file, want] : expected.items()) {
    INFO(file << " (" << want.value("url", "") << ")");
    std::vector<std::string> args = {"--from", test::source_path("tests/data/reports/collect_env/" + file), "check", "--json"};
    for (auto& a : want.value("check_args", json::array())) args.push_back(a.get<std::string>());
    auto r = test::run_gpucheck(args);
    // 0 or 1 is a verdict; 2 would mean the report could not be read.
    REQUIRE(test::is_verdict(r.exit_code));
    const auto out = json::parse(r.out);
    CHECK(out["source"].get<std::string>().find("torch_collect_env") != std::string::npos);
    std::set<std::string> found;
    for (auto& f : out["findings"]) found.insert(f["category"].get<std::string>());
    for (auto& c : want.value("categories", json::array())) {
      CHECK(found.count(c.get<std::string>()) == 1);
      ++diagnosed;
    }
  }
  CHECK(diagnosed >= 12);  // a dozen reports, each with its thread's diagnosis
}

// A report's placeholders are already in parentheses: the text report says
// "torch 2.1.0+cu121 (from report)", never "((from report))".
TEST_CASE("check --from names report-only places once", "[reports][cli]") {
  for (const char* file : {"pt112553-gke-torch2.1.0-partial.txt", "pt124996-v100-bf16-torch2.2.2-partial.txt"}) {
    INFO(file);
    auto r = test::run_gpucheck({"--from", test::source_path(std::string("tests/data/reports/collect_env/") + file), "check"});
    REQUIRE(test::is_verdict(r.exit_code));
    CHECK_THAT(r.out, Catch::Contains("(from report)"));
    CHECK_THAT(r.out, !Catch::Contains("((from report))"));
  }
}
