// `gpucheck fleet` end to end: the binary on real `check --json` reports of
// the fixture hosts (made by the binary here, as a launcher would collect
// them), on reports it cannot read, on bad arguments, and its goldens.
#include <catch2/catch.hpp>
#include <sys/stat.h>
#include <unistd.h>

#include <map>
#include <nlohmann/json.hpp>

#include "gpucheck_run.hpp"
#include "test_support.hpp"

namespace fs = std::filesystem;
using gpucheck::test::read_file;
using gpucheck::test::run_gpucheck;
using gpucheck::test::source_path;
using gpucheck::test::TempDir;
using gpucheck::test::write_file;

namespace {

// `gpucheck --root HOST check --json`, as a node would write it.
std::string check_report(const std::string& host) {
  const auto r = run_gpucheck({"--root", source_path("tests/fixtures/hosts/" + host), "check", "--json"});
  REQUIRE(r.exit_code <= 1);
  return r.out;
}

// Three healthy H100 nodes and a fourth on another driver whose check fails.
void write_fleet(const fs::path& dir) {
  const std::string h100 = check_report("h100-sxm-8gpu");
  for (const char* n : {"node01.json", "node02.json", "node03.json"}) write_file(dir / n, h100);
  write_file(dir / "node04.json", check_report("driver-mismatch"));
}

}  // namespace

TEST_CASE("fleet: real check reports: the skewed node is named, its failing finding lists it", "[cli][fleet]") {
  TempDir t;
  write_fleet(t.path());
  const auto r = run_gpucheck({"fleet", t.str()});
  INFO(r.out << r.err);
  CHECK(r.exit_code == 1);  // node04's check failed
  CHECK_THAT(r.out, Catch::Contains("4 reports: 3 pass, 1 fail: FAIL"));
  CHECK_THAT(r.out, Catch::Contains("[kernel-userspace-mismatch] Kernel module and userspace driver differ: 1 node\n"
                                    "           node04.json\n"));
  CHECK_THAT(r.out, Catch::Contains("driver            565.57.01 on 3 of 4 nodes\n"
                                    "                    550.54.14 on 1: node04.json\n"));
  CHECK_THAT(r.out, Catch::Contains("GPU model         NVIDIA H100 80GB HBM3 on 3 of 4 nodes"));
}

TEST_CASE("fleet: every node passing exits 0, probe reports mix with check reports", "[cli][fleet]") {
  TempDir t;
  const std::string h100 = check_report("h100-sxm-8gpu");
  write_file(t.path() / "a.json", h100);
  write_file(t.path() / "b.json", h100);
  write_file(t.path() / "c.json", read_file(source_path("tests/fixtures/golden/h100-sxm-8gpu.json")));  // probe --json
  write_file(t.path() / "notes.txt", "not a report: a directory is read for *.json only");
  const auto r = run_gpucheck({"fleet", t.str()});
  INFO(r.out << r.err);
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.out, Catch::Contains("3 reports: 2 pass, 0 fail, 1 probe only (no verdict): pass"));
  CHECK_THAT(r.out, Catch::Contains("driver            565.57.01 on all 3 nodes\n"));
  // Files named one by one are read whatever their names.
  CHECK(run_gpucheck({"fleet", (t.path() / "a.json").string(), (t.path() / "notes.txt").string()}).exit_code == 1);
}

TEST_CASE("fleet: unreadable, garbage, truncated and huge reports are listed, never fatal", "[cli][fleet][hostile]") {
  TempDir t;
  write_fleet(t.path());
  const std::string good = read_file((t.path() / "node01.json").string());
  write_file(t.path() / "garbage.json", "\x1b]0;title\x07 not json at all");
  write_file(t.path() / "truncated.json", good.substr(0, good.size() / 2));
  write_file(t.path() / "empty.json", "");
  write_file(t.path() / "huge.json", std::string(33u << 20, ' '));  // past the 32 MiB bound
  write_file(t.path() / "locked.json", good);
  fs::permissions(t.path() / "locked.json", fs::perms::none);
  const bool root = ::geteuid() == 0;  // root reads it anyway
  const auto r = run_gpucheck({"fleet", "--format", "json", t.str()});
  INFO(r.out << r.err);
  CHECK(r.exit_code == 1);
  const auto j = nlohmann::json::parse(r.out);
  std::map<std::string, std::string> unreadable;
  for (const auto& u : j["unreadable"]) unreadable[u["report"]] = u["reason"];
  CHECK(unreadable.size() == (root ? 4u : 5u));
  CHECK_THAT(unreadable["garbage.json"], Catch::Contains("not"));
  CHECK_THAT(unreadable["truncated.json"], Catch::Contains("not JSON"));
  CHECK_THAT(unreadable["empty.json"], Catch::Contains("not JSON"));
  CHECK_THAT(unreadable["huge.json"], Catch::Contains("larger than"));
  if (!root) CHECK(unreadable.count("locked.json") == 1);
  // The readable nodes are still judged.
  CHECK(j["counts"]["pass"] == (root ? 4 : 3));
  CHECK(j["failing_nodes"] == nlohmann::json::array({"node04.json"}));
  // An unreadable report alone fails the run: that node is not proven.
  TempDir lone;
  write_file(lone.path() / "ok.json", good);
  write_file(lone.path() / "bad.json", "{");
  CHECK(run_gpucheck({"fleet", lone.str()}).exit_code == 1);
  // A FIFO named on the command line is listed, not waited on.
  const fs::path fifo = lone.path() / "fifo.json";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  const auto f = run_gpucheck({"fleet", fifo.string(), (lone.path() / "ok.json").string()});
  CHECK(f.exit_code == 1);
  CHECK_THAT(f.out, Catch::Contains("fifo.json: is not a regular file"));
}

TEST_CASE("fleet: usage errors exit 2", "[cli][fleet]") {
  TempDir empty;
  CHECK(run_gpucheck({"fleet"}).exit_code == 2);
  const auto missing = run_gpucheck({"fleet", (empty.path() / "nope").string()});
  CHECK(missing.exit_code == 2);
  CHECK_THAT(missing.err, Catch::Contains("no such file or directory"));
  const auto none = run_gpucheck({"fleet", empty.str()});
  CHECK(none.exit_code == 2);
  CHECK_THAT(none.err, Catch::Contains("no reports"));
  CHECK(run_gpucheck({"fleet", "--format", "junit", source_path("tests/fixtures/golden")}).exit_code == 2);
  CHECK(run_gpucheck({"fleet", "--output", (empty.path() / "no/such/dir/out.md").string(), source_path("tests/fixtures/golden")})
            .exit_code == 2);
}

TEST_CASE("fleet: --output writes the report atomically, the exit code unchanged", "[cli][fleet][formats]") {
  TempDir t;
  write_fleet(t.path());
  const fs::path out = t.path() / "out" / "fleet.md";
  fs::create_directories(out.parent_path());
  write_file(out, "old");
  const auto r = run_gpucheck({"fleet", "--format", "markdown", "--output", out.string(), t.str()});
  CHECK(r.exit_code == 1);
  CHECK(r.out.empty());
  const std::string md = read_file(out.string());
  CHECK_THAT(md, Catch::StartsWith("# gpucheck fleet: FAIL"));
  CHECK_THAT(md, Catch::Contains("| driver | 565.57.01 (3 of 4) | 550.54.14 on 1: node04.json |"));
  CHECK(fs::directory_iterator(out.parent_path()) != fs::directory_iterator());  // no temporary left beside it
  std::size_t files = 0;
  for ([[maybe_unused]] auto& e : fs::directory_iterator(out.parent_path())) ++files;
  CHECK(files == 1);
}

TEST_CASE("fleet: the fixtures' golden probe reports, in each format, match their goldens", "[cli][fleet][formats]") {
  for (const std::string f : {"text", "json", "markdown", "oneline", "prometheus"}) {
    INFO(f);
    const auto r = gpucheck::test::run_gpucheck_with({"GPUCHECK_TODAY=2026-12-02"}, GPUCHECK_SOURCE_DIR,
                                                     {"fleet", "--format", f, "tests/fixtures/golden"});
    CHECK(r.exit_code == 0);  // probe reports only: no verdict fails
    CHECK(r.out == read_file(source_path("tests/fixtures/golden/fleet/golden-probes." + f)));
  }
}
