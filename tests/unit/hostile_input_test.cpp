// The binary fed bytes it does not own: it reads them, says what was wrong
// with them, and never aborts (issue: a gate launchers can trust).
#include <catch2/catch.hpp>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "gpucheck_run.hpp"
#include "test_support.hpp"

using gpucheck::test::run_gpucheck;
using gpucheck::test::run_gpucheck_with;
using gpucheck::test::TempDir;
using nlohmann::json;

namespace {

const std::string kH100 = gpucheck::test::source_path("tests/fixtures/hosts/h100-sxm-8gpu");

// A copy of a fixture whose manifest the test may spoil.
std::string copy_fixture(const TempDir& t, const std::string& from) {
  const auto to = t.path() / "snap";
  std::filesystem::copy(from, to, std::filesystem::copy_options::recursive | std::filesystem::copy_options::copy_symlinks);
  return to.string();
}

json manifest_of(const std::string& snap) { return json::parse(gpucheck::test::read_file(snap + "/.gpucheck/manifest.json")); }

void write_manifest(const std::string& snap, const json& m) {
  gpucheck::test::write_file(snap + "/.gpucheck/manifest.json", m.dump(1, ' ', true));
}

}  // namespace

TEST_CASE("an environment variable that is not UTF-8 is replaced and noted, not fatal", "[cli][bad-input]") {
  auto r = run_gpucheck_with({"CUDA_VISIBLE_DEVICES=\xff" "0"}, "", {"probe", "--json"});
  REQUIRE(r.exit_code == 0);
  const auto j = json::parse(r.out);
  CHECK(j["software"]["gpu_env"]["CUDA_VISIBLE_DEVICES"] == "\xEF\xBF\xBD" "0");
  bool noted = false;
  for (const auto& n : j["notes"])
    noted |= n["item"] == "$.software.gpu_env.CUDA_VISIBLE_DEVICES" && n["detail"].get<std::string>().find("U+FFFD") != std::string::npos;
  CHECK(noted);
  CHECK(run_gpucheck_with({"CUDA_VISIBLE_DEVICES=\xff"}, "", {"check", "--json"}).exit_code != 134);
}

TEST_CASE("a relative --root judges what the absolute path does", "[cli]") {
  const auto absolute = run_gpucheck({"--root", kH100, "check", "--json"});
  REQUIRE(absolute.exit_code == 0);
  const auto facts = json::parse(absolute.out)["facts"];
  const auto parent = std::filesystem::path(kH100).parent_path().string();
  for (const auto& [cwd, root] : {std::pair{kH100, std::string(".")}, std::pair{parent, std::string("h100-sxm-8gpu")},
                                  std::pair{kH100 + "/.gpucheck", std::string("..")}}) {
    INFO("cd " << cwd << " && gpucheck --root " << root);
    const auto rel = run_gpucheck_with({}, cwd, {"--root", root, "check", "--json"});
    REQUIRE(rel.exit_code == absolute.exit_code);
    CHECK(json::parse(rel.out)["facts"] == facts);
  }
  const auto empty = run_gpucheck({"--root", "", "check"});
  CHECK(empty.exit_code == 2);
  CHECK_THAT(empty.err, Catch::Contains("empty path"));
}

TEST_CASE("control characters from a snapshot reach the terminal escaped", "[cli][bad-input]") {
  TempDir t;
  const auto snap = copy_fixture(t, kH100);
  auto m = manifest_of(snap);
  m["uname"]["nodename"] = "evil\x1b]0;pwned\x07\x1b[2J\xC2\x9B" "X";
  write_manifest(snap, m);
  for (const char* colour : {"never", "always"}) {
    INFO("--color " << colour);
    const auto r = run_gpucheck({"--root", snap, "--color", colour, "probe"});
    REQUIRE(r.exit_code == 0);
    CHECK_THAT(r.out, Catch::Contains("evil\\x1b]0;pwned\\x07\\x1b[2J\\u009bX"));
    CHECK(r.out.find("\x07") == std::string::npos);
    CHECK(r.out.find("\x1b]") == std::string::npos);
    CHECK(r.out.find("\x1b[2J") == std::string::npos);
  }
  // JSON carries the bytes as JSON escapes, readable back to the same name.
  const auto j = run_gpucheck({"--root", snap, "probe", "--json"});
  REQUIRE(j.exit_code == 0);
  CHECK(json::parse(j.out)["system"]["hostname"] == "evil\x1b]0;pwned\x07\x1b[2J\xC2\x9B" "X");
}

TEST_CASE("a number too large for a double is a clear error, not an abort", "[cli][bad-input]") {
  TempDir t;
  SECTION("in a snapshot manifest") {
    const auto snap = copy_fixture(t, kH100);
    std::string text = gpucheck::test::read_file(snap + "/.gpucheck/manifest.json");
    text.insert(text.find('{') + 1, "\"big\": 1e400,");
    gpucheck::test::write_file(snap + "/.gpucheck/manifest.json", text);
    const auto r = run_gpucheck({"--root", snap, "check"});
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Catch::Contains("manifest.json"));
    CHECK_THAT(r.err, Catch::Contains("line 1, column"));
    CHECK_THAT(r.err, Catch::Contains("1e400"));
    CHECK_THAT(r.err, !Catch::Contains("json.exception"));
  }
  SECTION("in a --from report") {
    const auto report = run_gpucheck({"--root", kH100, "check", "--json"});
    REQUIRE(report.exit_code == 0);
    std::string text = report.out;
    const auto at = text.find("\"memory_bytes\": ");
    REQUIRE(at != std::string::npos);
    text.replace(at, 16, "\"memory_bytes\": 1e400, \"was\": ");
    const auto path = t.str() + "/report.json";
    gpucheck::test::write_file(path, text);
    const auto r = run_gpucheck({"--from", path, "check"});
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Catch::Contains("report.json"));
    CHECK_THAT(r.err, !Catch::Contains("json.exception"));
  }
}

TEST_CASE("a json.py or site.py in the working directory never runs inside an interpreter we start", "[cli][bad-input][python]") {
  TempDir t;
  const std::string venv = t.str() + "/venv";
  auto made = gpucheck::run_process("/usr/bin/python3", {"-m", "venv", "--without-pip", venv}, gpucheck::Millis(60000));
  REQUIRE(made);
  REQUIRE(made->exit_code == 0);
  const std::string cwd = t.str() + "/work";
  const std::string marker = t.str() + "/ran";
  for (const char* module : {"json.py", "site.py", "os.py"})
    gpucheck::test::write_file(cwd + "/" + module, "open('" + marker + "', 'a').write('" + module + "\\n')\n");
  const auto plain = run_gpucheck_with({"VIRTUAL_ENV=" + venv}, cwd, {"probe", "--json"});
  CHECK(plain.exit_code == 0);
  const auto deep = run_gpucheck_with({"VIRTUAL_ENV=" + venv}, cwd, {"probe", "--deep", "--python", venv + "/bin/python3", "--json"});
  CHECK(deep.exit_code == 0);
  CHECK_FALSE(std::filesystem::exists(marker));
  // The venv was still asked for its sys.path.
  bool asked = false;
  const auto facts = json::parse(plain.out);
  for (auto& e : facts["software"]["python"])
    asked |= e["interpreter"] == venv + "/bin/python3" && e["sys_path_source"] != "conventional locations";
  CHECK(asked);
}
