// The binary fed bytes it does not own: it reads them, says what was wrong
// with them, and never aborts (issue: a gate launchers can trust).
#include <catch2/catch.hpp>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "gpucheck_run.hpp"
#include "host/snapshot_leftovers.hpp"
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
  m["uname"]["nodename"] = "evil\x1b]0;pwned\x07\x1b[2J\xC2\x9B" "X\x7f\xE2\x80\xAE";
  write_manifest(snap, m);
  for (const char* colour : {"never", "always"}) {
    INFO("--color " << colour);
    const auto r = run_gpucheck({"--root", snap, "--color", colour, "probe"});
    REQUIRE(r.exit_code == 0);
    CHECK_THAT(r.out, Catch::Contains("evil\\x1b]0;pwned\\x07\\x1b[2J\\u009bX\\u007f\\u202e"));
    CHECK(r.out.find("\xE2\x80\xAE") == std::string::npos);
    CHECK(r.out.find("\x07") == std::string::npos);
    CHECK(r.out.find("\x1b]") == std::string::npos);
    CHECK(r.out.find("\x1b[2J") == std::string::npos);
  }
  // JSON on standard output carries the bytes as JSON escapes, readable back
  // to the same name (DEL too: nlohmann leaves it raw, the filter writes \u007f).
  for (const char* command : {"probe", "check"}) {
    const auto j = run_gpucheck({"--root", snap, command, "--json"});
    REQUIRE(j.exit_code != 2);
    const auto out = json::parse(j.out);
    CHECK(out.value("facts", out)["system"]["hostname"] == m["uname"]["nodename"]);
  }
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

TEST_CASE("a driver's answer with a number outside its field's range is noted, not an abort", "[cli][bad-input]") {
  TempDir t;
  const auto snap = copy_fixture(t, kH100);
  const auto original = manifest_of(snap);
  // Values of the 2026-12-03 audit (D1): each aborted every probing command.
  for (const char* value : {"2147483648", "18446744073709551616", "1e19", "1e300", "-1e300", "-1", "99999999999"}) {
    INFO("driver_version " << value);
    auto m = original;
    auto answer = json::parse(m["calls"]["cuda-driver-api"]["output"].get<std::string>());
    answer["driver_version"] = json::parse(value);
    m["calls"]["cuda-driver-api"]["output"] = answer.dump();
    write_manifest(snap, m);
    const auto r = run_gpucheck({"--root", snap, "probe", "--json"});
    REQUIRE(r.exit_code == 0);
    const auto facts = json::parse(r.out);
    CHECK(facts["cuda_driver_api"]["driver_version"].is_null());
    CHECK_THAT(r.out, Catch::Contains("not a CUDA version"));
    CHECK(run_gpucheck({"--root", snap, "check"}).exit_code == 0);
  }
  // A compute capability the device query cannot have given: noted, unknown
  // (the gate then says it could not verify it), never shown as read.
  for (const char* value : {"2147483648.9", "9.99999999999999999999", "nine", ""}) {
    INFO("compute_capability " << value);
    auto m = original;
    auto answer = json::parse(m["calls"]["cuda-driver-api"]["output"].get<std::string>());
    answer["devices"][0]["compute_capability"] = value;
    m["calls"]["cuda-driver-api"]["output"] = answer.dump();
    write_manifest(snap, m);
    const auto r = run_gpucheck({"--root", snap, "probe", "--json"});
    REQUIRE(r.exit_code == 0);
    const auto facts = json::parse(r.out);
    CHECK(facts["cuda_driver_api"]["devices"][0]["compute_capability"].is_null());
    CHECK_THAT(r.out, Catch::Contains("not MAJOR.MINOR"));
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

TEST_CASE("a re-snapshot of a crafted snapshot writes nothing outside its --out", "[cli][snapshot][bad-input]") {
  // Chains of 20 and 21 links on the way to /etc/os-release: the reader
  // counts links per component (40 each, as the kernel), so it follows both;
  // the last link is absolute and points at a directory of this host. A
  // writer that counted otherwise, or wrote through the links it recreates,
  // would put os-release there.
  TempDir t;
  namespace fs = std::filesystem;
  const auto snap = t.path() / "snap";
  const auto outside = t.path() / "outside";
  fs::create_directories(outside);
  fs::create_directories(snap / "real/etc-dir");
  gpucheck::test::write_file(snap / ".gpucheck/manifest.json", R"({"format": "gpucheck-snapshot/1"})");
  for (int i = 0; i < 20; ++i)
    fs::create_symlink(i == 19 ? "real/etc-dir" : "e" + std::to_string(i + 1), snap / (i == 0 ? "etc" : "e" + std::to_string(i)));
  for (int i = 0; i < 21; ++i)
    fs::create_symlink(i == 20 ? outside.string() + "/os-release" : "o" + std::to_string(i + 1),
                       snap / "real/etc-dir" / (i == 0 ? "os-release" : "o" + std::to_string(i)));
  // Inside the snapshot the absolute target is re-anchored: SNAP/<outside>/os-release.
  gpucheck::test::write_file(snap.string() + outside.string() + "/os-release", "ID=crafted\n");

  const auto out = t.path() / "copy";
  const auto r = run_gpucheck({"--root", snap.string(), "snapshot", "--out", out.string()});
  INFO(r.err);
  CHECK((r.exit_code == 0 || r.exit_code == 2));
  CHECK(fs::is_empty(outside));
  if (r.exit_code == 0) {
    // And the copy reads as the original did.
    const auto a = json::parse(run_gpucheck({"--root", snap.string(), "probe", "--json"}).out);
    const auto b = json::parse(run_gpucheck({"--root", out.string(), "probe", "--json"}).out);
    CHECK(a["system"]["os"] == b["system"]["os"]);
    CHECK(b["system"]["os"]["id"] == "crafted");
  }
  // An X.tmp-* already beside the target is someone else's: left as it is.
  const auto mine = t.path() / "copy2.tmp-12345";
  fs::create_directories(mine);
  gpucheck::test::write_file(mine / "keep", "keep");
  CHECK(run_gpucheck({"--root", snap.string(), "snapshot", "--out", (t.path() / "copy2").string()}).exit_code != 134);
  CHECK(gpucheck::test::read_file((mine / "keep").string()) == "keep");
}

// A killed `snapshot --out` run leaves its temporary directory behind,
// named for its writer; the next snapshot beside it removes only those whose
// writer is gone. The names here are this test process's, edited
// (synthetic); docs/robustness.md has the 200 real kills.
TEST_CASE("a snapshot removes what killed snapshot runs left, and nothing else", "[cli][snapshot][bad-input]") {
  TempDir t;
  namespace fs = std::filesystem;
  const auto me = gpucheck::this_snapshot_writer();
  REQUIRE(me);
  REQUIRE(gpucheck::writer_of_temp_name(gpucheck::snapshot_temp_name("x", *me))->start == me->start);
  auto leftover = [&](const std::string& target, const gpucheck::SnapshotWriter& w) {
    const auto dir = t.path() / gpucheck::snapshot_temp_name(target, w);
    gpucheck::test::write_file(dir / "etc/os-release", "ID=half-written\n");
    return dir;
  };
  auto pid_reused = *me;
  pid_reused.start += 1;
  auto rebooted = *me;
  rebooted.boot = std::string(32, '0');
  auto elsewhere = pid_reused;
  elsewhere.host = std::string(16, 'f');
  const auto dead = leftover("a", pid_reused);
  const auto dead_by_boot = leftover("b", rebooted);
  const auto running = leftover("c", *me);  // this test process is alive
  const auto other_host = leftover("d", elsewhere);
  // A link named like a dead writer's leftover is not followed or removed.
  const auto elsewhere_dir = t.path() / "keep";
  gpucheck::test::write_file(elsewhere_dir / "file", "keep");
  const auto linked = t.path() / gpucheck::snapshot_temp_name("e", pid_reused);
  fs::create_directory_symlink(elsewhere_dir, linked);

  const auto r = run_gpucheck({"--root", kH100, "snapshot", "--out", (t.path() / "new").string()});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.err, Catch::Contains("removed 2 temporary directories that killed snapshot runs left"));
  CHECK_FALSE(fs::exists(dead));
  CHECK_FALSE(fs::exists(dead_by_boot));
  for (const auto& kept : {running, other_host, linked}) CHECK(fs::exists(fs::symlink_status(kept)));
  CHECK(gpucheck::test::read_file((elsewhere_dir / "file").string()) == "keep");
  CHECK(run_gpucheck({"--root", (t.path() / "new").string(), "probe", "--json"}).exit_code == 0);
}

TEST_CASE("one report a fleet cannot read is listed, the others are still judged", "[cli][bad-input][fleet]") {
  TempDir t;
  namespace fs = std::filesystem;
  const auto lock = t.str() + "/stack.lock";
  REQUIRE(run_gpucheck({"--root", kH100, "lock", "-o", lock}).exit_code == 0);
  const auto good = run_gpucheck({"--root", kH100, "probe", "--json"});
  REQUIRE(good.exit_code == 0);
  fs::create_directories(t.path() / "fleet");
  gpucheck::test::write_file(t.path() / "fleet/node1.json", good.out);
  std::string bad = good.out;
  bad.insert(bad.find('{') + 1, "\"big\": 1e400, \"host\": \"\xff\",");
  gpucheck::test::write_file(t.path() / "fleet/node2.json", bad);
  const auto r = run_gpucheck({"verify", lock, "--fleet", (t.path() / "fleet").string()});
  INFO(r.out << r.err);
  CHECK(r.exit_code != 134);
  CHECK(r.exit_code <= 2);
  CHECK_THAT(r.out + r.err, Catch::Contains("node2.json"));
  CHECK_THAT(r.out, Catch::Contains("1 match") && Catch::Contains("1 unreadable"));
}

// `verify --fleet DIR LOCK`: --fleet takes every argument after it, so the
// lock named last is found among them rather than gpucheck.lock looked for.
TEST_CASE("verify --fleet takes the lock before or after the reports, and refuses two", "[cli][fleet]") {
  TempDir t;
  const auto lock = t.str() + "/stack.lock";
  REQUIRE(run_gpucheck({"--root", kH100, "lock", "-o", lock}).exit_code == 0);
  const auto good = run_gpucheck({"--root", kH100, "probe", "--json"});
  REQUIRE(good.exit_code == 0);
  gpucheck::test::write_file(t.path() / "fleet/node1.json", good.out);
  const auto fleet = (t.path() / "fleet").string();
  const auto before = run_gpucheck({"verify", lock, "--fleet", fleet});
  const auto after = run_gpucheck({"verify", "--fleet", fleet, lock});
  INFO(after.out << after.err);
  CHECK(before.exit_code == 0);
  CHECK(after.exit_code == 0);
  CHECK(after.out == before.out);
  CHECK_THAT(after.out, Catch::Contains("1 match"));
  const auto two = run_gpucheck({"verify", lock, "--fleet", fleet, lock});
  CHECK(two.exit_code == 2);
  CHECK_THAT(two.err, Catch::Contains("is a lockfile, not a report"));
}
