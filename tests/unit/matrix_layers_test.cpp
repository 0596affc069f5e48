// A team's knowledge on top of the shipped matrix: layers (--matrix, given
// more than once, and the system's layer directory) add or replace rules
// and entries by id, are validated like the matrix, and say they were used.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "gpucheck_run.hpp"
#include "matrix/lookup.hpp"
#include "matrix/matrix_layers.hpp"
#include "test_support.hpp"

using namespace gpucheck;
using gpucheck::test::run_gpucheck;
using gpucheck::test::run_gpucheck_with;
using gpucheck::test::TempDir;
using gpucheck::test::write_file;
using nlohmann::json;

namespace {

const std::string kH100 = gpucheck::test::source_path("tests/fixtures/hosts/h100-sxm-8gpu");  // driver 565.57.01

// A layer with one rule: an error when the driver is older than `floor`.
std::string pin_layer(const std::string& id, const std::string& floor, const std::string& title) {
  return R"({"schema": "gpucheck.matrix/1", "rules": [{"id": ")" + id +
         R"(", "category": "driver-too-old", "severity": "error", "scope": "host", "title": ")" + title +
         R"(", "when": {"fact": "driver.version", "op": "<", "value": ")" + floor +
         R"("}, "message": "The team pins driver )" + floor +
         R"(; this host has {driver.version}", "fix": "Install the pinned driver", "action": "fix-software", "sources": ["https://example.com/synthetic-team-pins"]}]})";
}

std::vector<std::string> titles(const std::string& check_json) {
  std::vector<std::string> out;
  const auto report = json::parse(check_json);
  for (const auto& f : report["findings"]) out.push_back(f["title"]);
  return out;
}

bool has(const std::vector<std::string>& v, const std::string& s) { return std::find(v.begin(), v.end(), s) != v.end(); }

}  // namespace

TEST_CASE("a layer's entries replace those of the same id and add the others, in order", "[matrix][layers]") {
  Matrix base, layer;
  using test::version;
  base.cuda_releases = {{version("12.4.0"), version("550.54.14"), {}, {}, {}, {"https://example.com/a"}},
                        {version("12.5.0"), version("555.42.02"), {}, {}, {}, {"https://example.com/b"}}};
  layer.cuda_releases = {{version("12.4"), version("550.54.15"), {}, {}, {}, {"https://example.com/c"}},  // the same release as 12.4.0
                         {version("12.6.0"), version("560.28.03"), {}, {}, {}, {"https://example.com/d"}}};
  lay_over(base, layer);
  REQUIRE(base.cuda_releases.size() == 3);
  CHECK(test::text_of(base.cuda_releases[0].min_driver_linux) == "550.54.15");
  CHECK(base.cuda_releases[1].version.text() == "12.5.0");
  CHECK(base.cuda_releases[2].version.text() == "12.6.0");
}

TEST_CASE("a layer's GPU id replaces the derived one whatever the case of its id", "[matrix][layers]") {
  Matrix base, layer;
  base.gpu_ids = {{"10de:2c02", "GB203", {"NVIDIA GeForce RTX 5080"}, "Blackwell", test::version("12.0"), "2026-12-05", {"https://example.com/a"}}};
  layer.gpu_ids = {{"10DE:2C02", "GB203", {"NVIDIA GeForce RTX 5080"}, "Blackwell", test::version("12.1"), "2026-12-06", {"https://example.com/b"}},
                   {"10de:ffff", "GB299", {"a synthetic GPU"}, "", std::nullopt, "2026-12-06", {"https://example.com/c"}}};
  lay_over(base, layer);
  REQUIRE(base.gpu_ids.size() == 2);
  CHECK(test::text_of(base.gpu_ids[0].compute_capability) == "12.1");
  CHECK(find_gpu_id(base, "10de:2c02") == &base.gpu_ids[0]);
  CHECK(find_gpu_id(base, "10DE:FFFF") == &base.gpu_ids[1]);
}

TEST_CASE("matrix layers given with --matrix add rules, later ones win, and the report names them", "[cli][matrix][layers]") {
  TempDir t;
  write_file(t.path() / "team.json", pin_layer("team-driver-pin", "570", "Below the team's driver 570"));
  write_file(t.path() / "site.json", pin_layer("team-driver-pin", "560", "Below the site's driver 560"));
  const std::string team = (t.path() / "team.json").string(), site = (t.path() / "site.json").string();

  const auto plain = run_gpucheck({"--root", kH100, "check", "--json"});
  const auto one = run_gpucheck({"--root", kH100, "--matrix", team, "check", "--json"});
  CHECK(plain.exit_code == 0);
  CHECK(one.exit_code == 1);
  CHECK(has(titles(one.out), "Below the team's driver 570"));
  CHECK(json::parse(one.out)["matrix"]["origin"] == "embedded + " + team);
  // The shipped rules still run beside it.
  CHECK(titles(one.out).size() == titles(plain.out).size() + 1);

  // The same id, later: replaced, not added (565 is not below 560).
  const auto both = run_gpucheck({"--root", kH100, "--matrix", team, "--matrix", site, "check", "--json"});
  CHECK(both.exit_code == 0);
  CHECK_FALSE(has(titles(both.out), "Below the team's driver 570"));
  CHECK(titles(both.out).size() == titles(plain.out).size());
}

TEST_CASE("the system's layer directory is laid first, --matrix after it", "[cli][matrix][layers]") {
  TempDir t;
  write_file(t.path() / "matrix.d/10-team.json", pin_layer("team-driver-pin", "570", "Below the team's driver 570"));
  const std::string dir = (t.path() / "matrix.d").string();
  const auto r = run_gpucheck_with({"GPUCHECK_MATRIX_DIR=" + dir}, "", {"--root", kH100, "check", "--json"});
  CHECK(r.exit_code == 1);
  CHECK(has(titles(r.out), "Below the team's driver 570"));
  CHECK(json::parse(r.out)["matrix"]["origin"] == "embedded + " + dir);
  write_file(t.path() / "relax.json", pin_layer("team-driver-pin", "560", "Below the site's driver 560"));
  const auto relaxed =
      run_gpucheck_with({"GPUCHECK_MATRIX_DIR=" + dir}, "", {"--root", kH100, "--matrix", (t.path() / "relax.json").string(), "check"});
  CHECK(relaxed.exit_code == 0);
  // A directory that is not there is no layer.
  const auto none = run_gpucheck_with({"GPUCHECK_MATRIX_DIR=" + (t.path() / "absent").string()}, "", {"matrix", "show"});
  CHECK_THAT(none.out, Catch::Contains("origin   embedded\n"));
}

TEST_CASE("a bad layer stops the run with its file and field, and validate reads layers", "[cli][matrix][layers][bad-input]") {
  TempDir t;
  write_file(t.path() / "bad.json", R"({"schema": "gpucheck.matrix/1", "cuda_releases": [{"version": "13.9.0", "min_driver": "650"}]})");
  const std::string bad = (t.path() / "bad.json").string();
  const auto r = run_gpucheck({"--root", kH100, "--matrix", bad, "check"});
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Catch::Contains("bad.json") && Catch::Contains("/cuda_releases/0"));
  CHECK(run_gpucheck({"matrix", "validate", bad}).exit_code == 1);

  write_file(t.path() / "good.json", pin_layer("team-driver-pin", "570", "Below the team's driver 570"));
  const auto v = run_gpucheck({"matrix", "validate", (t.path() / "good.json").string()});
  CHECK(v.exit_code == 0);
  CHECK_THAT(v.out, Catch::Contains("valid matrix layer") && Catch::Contains("1 rule"));
}

TEST_CASE("a layer with its own version is a whole matrix and replaces the embedded one", "[cli][matrix][layers]") {
  const std::string whole = gpucheck::test::source_path("matrix");
  const auto r = run_gpucheck({"--matrix", whole, "matrix", "show"});
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.out, Catch::Contains("origin   " + whole + "\n"));
}
