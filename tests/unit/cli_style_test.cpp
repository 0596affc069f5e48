// The command line as a new user meets it (issue 36): one style for errors
// with what was expected and the word meant, durations with units, help
// that fits the terminal, one spelling of output, several documents from
// one run, and a progress line on a terminal only.
#include <catch2/catch.hpp>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "gpucheck_run.hpp"
#include "test_support.hpp"

using gpucheck::test::read_file;
using gpucheck::test::run_gpucheck;
using gpucheck::test::run_gpucheck_with;
using gpucheck::test::source_path;
using gpucheck::test::TempDir;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

const std::string kHealthy = "tests/fixtures/hosts/a100-sxm4-4gpu";

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

// The longest line, a single word that no width can break (a URL) aside.
std::size_t longest_line(const std::string& text) {
  std::size_t n = 0;
  for (const auto& l : lines_of(text))
    if (l.find(' ', l.find_first_not_of(' ')) != std::string::npos) n = std::max(n, l.size());
  return n;
}

// A usage error: exit 2, one line on standard error, in the house style.
void one_error_line(const gpucheck::CommandResult& r, const std::string& expected) {
  INFO(r.err);
  CHECK(r.exit_code == 2);
  CHECK(r.out.empty());
  CHECK(r.err == "gpucheck: error: " + expected + "\n");
}

}  // namespace

TEST_CASE("usage errors: one line, what was expected, the word meant", "[cli][style]") {
  one_error_line(run_gpucheck({"check", "--gpus", "0"}), "--gpus: expected a whole number of at least 1 and at most 1024, got \"0\"");
  one_error_line(run_gpucheck({"check", "--gpus", "eight"}),
                 "--gpus: expected a whole number of at least 1 and at most 1024, got \"eight\"");
  one_error_line(run_gpucheck({"chek"}), "unknown command \"chek\"; did you mean check?");
  one_error_line(run_gpucheck({"check", "--jsn"}), "unknown option \"--jsn\" for `gpucheck check`; did you mean --json?");
  one_error_line(run_gpucheck({"check", "--format", "jsn"}),
                 "--format: expected one of text, json, junit, prometheus, nfd, markdown, oneline; got \"jsn\" (did you mean json?)");
  one_error_line(run_gpucheck({"--color", "allways"}), "--color: expected one of auto, always, never; got \"allways\" (did you mean always?)");
  one_error_line(run_gpucheck({"matrix", "updat"}), "unknown command \"updat\" for `gpucheck matrix`; did you mean update?");
  one_error_line(run_gpucheck({"matrix"}), "`gpucheck matrix` needs a command: validate, show, update, export, sign, verify, docs");
  one_error_line(run_gpucheck({"completion"}), "`gpucheck completion` needs its SHELL argument; `gpucheck completion -h` says what it takes");
  one_error_line(run_gpucheck({"check", "--format"}), "--format needs a value");
  one_error_line(run_gpucheck({"help", "chek"}), "help: no command \"chek\"; did you mean check?");
  // Nothing close: the list, not a guess.
  one_error_line(run_gpucheck({"frobnicate"}), "unknown command \"frobnicate\"; the commands are check, recommend, explain, fit, matrix, "
                                               "probe, snapshot, kernels, lock, verify, completion, fleet, help");
  // The command's own errors have the same prefix.
  const auto missing = run_gpucheck({"--from", "/nonexistent/report.txt", "check"});
  CHECK(missing.exit_code == 2);
  CHECK(missing.err.rfind("gpucheck: error: --from /nonexistent/report.txt: ", 0) == 0);
}

TEST_CASE("durations take units, a bare number is seconds", "[cli][style]") {
  for (const char* t : {"5", "5s", "5000ms", "0.5m"}) {
    INFO(t);
    CHECK(run_gpucheck({"--timeout", t, "--root", source_path(kHealthy), "check", "--format", "oneline"}).out == "PASS\n");
    // a global option after the command, as CLI11 takes it
    CHECK(run_gpucheck({"--root", source_path(kHealthy), "check", "--timeout", t, "--format", "oneline"}).exit_code == 0);
  }
  one_error_line(run_gpucheck({"--timeout", "5x", "check"}),
                 "--timeout: expected a duration like 30, 30s, 500ms or 2m (a bare number is seconds), got \"5x\"");
  one_error_line(run_gpucheck({"--timeout", "2h", "check"}), "--timeout: expected at least 0.1 s and at most 1 h, got \"2h\"");
  one_error_line(run_gpucheck({"kernels", "--duration", "0"}), "--duration: expected more than 0 s and at most 1 h, got \"0\"");
  one_error_line(run_gpucheck({"kernels", "--duration", "inf"}),
                 "--duration: expected a duration like 30, 30s, 500ms or 2m (a bare number is seconds), got \"inf\"");
}

TEST_CASE("help, help COMMAND, -V and a bare --json answer with exit 0", "[cli][style]") {
  const auto help = run_gpucheck({"help"});
  CHECK(help.exit_code == 0);
  CHECK(help.out.rfind("Usage: gpucheck [OPTIONS] [COMMAND]\n", 0) == 0);
  CHECK(help.out == run_gpucheck({"--help"}).out);
  const auto check = run_gpucheck({"help", "check"});
  CHECK(check.exit_code == 0);
  CHECK(check.out.rfind("Usage: gpucheck [GLOBAL OPTIONS] check [OPTIONS]\n", 0) == 0);
  CHECK(check.out == run_gpucheck({"check", "--help"}).out);
  CHECK(run_gpucheck({"help", "matrix", "update"}).out.rfind("Usage: gpucheck [GLOBAL OPTIONS] matrix update [OPTIONS]\n", 0) == 0);
  const auto v = run_gpucheck({"-V"});
  CHECK(v.exit_code == 0);
  CHECK(v.out == run_gpucheck({"--version"}).out);
  CHECK(v.out.rfind("gpucheck ", 0) == 0);
  const auto j = run_gpucheck({"--root", source_path(kHealthy), "--json"});
  CHECK(j.exit_code == 0);
  CHECK(json::parse(j.out)["schema"] == "gpucheck.check/1");
  // --json before another command: said, not ignored.
  one_error_line(run_gpucheck({"--json", "lock"}),
                 "--json before a command means `gpucheck check --json`; give it after the command, as `gpucheck lock --json`, "
                 "where the command has it");
}

TEST_CASE("help fits: usage first, wrapped to the width on words, no parser notes", "[cli][style]") {
  const auto at = [](const std::string& columns, const std::vector<std::string>& args) {
    return run_gpucheck_with({"COLUMNS=" + columns}, "", args).out;
  };
  for (const std::vector<std::string>& args : {std::vector<std::string>{"--help"}, {"-h"}, {"check", "--help"}, {"check", "-h"},
                                              {"matrix", "update", "--help"}, {"fleet", "-h"}}) {
    INFO(args[0] << " " << args.back());
    const auto wide = at("200", args), eighty = at("80", args), sixty = at("60", args);
    CHECK(wide.rfind("Usage: gpucheck", 0) == 0);
    CHECK(longest_line(wide) <= 100);  // readable however wide the terminal
    CHECK(longest_line(eighty) <= 80);
    CHECK(longest_line(eighty) > 70);  // filled, not cut short
    CHECK(longest_line(sixty) <= 60);
    for (const char* note : {"TEXT:", "in [", ":FLOAT", ":INT", "REQUIRED", "Excludes:", "Needs:"}) CHECK(wide.find(note) == std::string::npos);
  }
  // No command's options show CLI11's type names.
  for (const char* command : {"check", "recommend", "explain", "probe", "snapshot", "kernels", "lock", "verify", "fleet", "completion"})
    for (const char* type : {" TEXT", " FLOAT", " INT", " UINT"}) {
      INFO(command << type);
      CHECK(at("100", {command, "--help"}).find(std::string(type) + "\n") == std::string::npos);
    }
  // Not a terminal and no COLUMNS: 80.
  CHECK(longest_line(run_gpucheck_with({"-uCOLUMNS"}, "", {"--help"}).out) <= 80);
  // -h is the summary, --help the whole.
  CHECK(at("80", {"check", "-h"}).size() * 2 < at("80", {"check", "--help"}).size());
  // One line a command in the overview.
  const auto overview = at("80", {"-h"});
  const auto commands = overview.substr(overview.find("Commands:\n"), overview.find("\nOptions:") - overview.find("Commands:\n"));
  CHECK(lines_of(commands).size() == 1 + 13);
  // A command's help lists the global options the README gives with it.
  const auto check = at("80", {"check", "-h"});
  for (const char* global : {"Global options", "--from FILE", "--root DIR", "--timeout DURATION"}) CHECK_THAT(check, Catch::Contains(global));
  CHECK_THAT(at("80", {"--help"}), Catch::Contains("/usr/share/doc/gpucheck/docs/"));
}

TEST_CASE("one spelling of output: -o/--output, - is standard output, several documents from one run", "[cli][style][formats]") {
  TempDir t;
  const std::vector<std::string> env{"GPUCHECK_TODAY=2026-12-02"};
  const std::string root = source_path(kHealthy);
  // `-` is standard output, not a file named "-".
  const auto dash = run_gpucheck_with(env, t.str(), {"--root", root, "check", "-o", "-", "--format", "oneline"});
  CHECK(dash.out == "PASS\n");
  CHECK_FALSE(fs::exists(t.path() / "-"));
  // One run, three documents, each the same as its own run's.
  const auto several = run_gpucheck_with(env, t.str(), {"--root", root, "check", "-o", "nfd=labels", "--output", "prometheus=metrics.prom",
                                                        "-o", "json=report.json", "-o", "-", "--format", "oneline"});
  CHECK(several.exit_code == 0);
  CHECK(several.out == "PASS\n");
  CHECK(read_file(t.path() / "labels") == run_gpucheck_with(env, "", {"--root", root, "check", "--format", "nfd"}).out);
  CHECK(read_file(t.path() / "metrics.prom") == run_gpucheck_with(env, "", {"--root", root, "check", "--format", "prometheus"}).out);
  CHECK(json::parse(read_file(t.path() / "report.json"))["verdict"] == "pass");
  one_error_line(run_gpucheck({"probe", "-o", "nfd=x"}), "--output: this command writes text, json; got \"nfd\" in \"nfd=x\"");
  one_error_line(run_gpucheck({"--root", root, "check", "-o", "-", "-o", "json=-"}),
                 "--output: standard output given twice; one document can go there, the others to files");
  // snapshot: -o too (its old --out still works).
  CHECK(run_gpucheck({"--root", root, "snapshot", "-o", (t.path() / "snap").string()}).exit_code == 0);
  CHECK(fs::is_directory(t.path() / "snap"));
  CHECK(run_gpucheck({"--root", root, "snapshot", "--out", (t.path() / "snap2").string()}).exit_code == 0);
  one_error_line(run_gpucheck({"snapshot"}), "`gpucheck snapshot` needs -o DIR, the directory to create");
}

TEST_CASE("every JSON document names its schema, and probe, recommend and explain take --format", "[cli][style]") {
  const std::string root = source_path(kHealthy);
  const std::vector<std::pair<std::vector<std::string>, std::string>> documents{
      {{"--root", root, "check", "--json"}, "gpucheck.check/1"},
      {{"--root", root, "probe", "--format", "json"}, "gpucheck.facts/1"},
      {{"--root", root, "recommend", "--json"}, "gpucheck.recommend/1"},
      {{"--root", root, "explain", "--format", "json", "no kernel image is available"}, "gpucheck.explain/1"},
      {{"kernels", "--json"}, "gpucheck.kernels/1"},
      {{"matrix", "show", "--json"}, "gpucheck.matrix-show/1"},
      {{"fleet", "--json", source_path("tests/fixtures/golden")}, "gpucheck.fleet/1"},
  };
  for (const auto& [args, schema] : documents) {
    INFO(args[args.size() > 2 ? 2 : 0] << " " << schema);
    const auto r = run_gpucheck(args);
    REQUIRE(r.exit_code <= 2);  // kernels on a host with no GPU: 2, with its JSON
    CHECK(json::parse(r.out)["schema"] == schema);
  }
  CHECK(run_gpucheck({"--root", root, "probe", "--format", "text"}).out == run_gpucheck({"--root", root, "probe"}).out);
}

TEST_CASE("nfd labels expire a few intervals on, and 0 keeps them", "[cli][style][formats]") {
  const std::vector<std::string> env{"GPUCHECK_TODAY=2026-12-02"};
  const std::string root = source_path(kHealthy);
  const auto first_line = [&](const std::vector<std::string>& more) {
    std::vector<std::string> args{"--root", root, "check", "--format", "nfd"};
    args.insert(args.end(), more.begin(), more.end());
    return lines_of(run_gpucheck_with(env, "", args).out).front();
  };
  CHECK(first_line({}) == "# +expiry-time=2026-12-02T01:00:00Z");  // 1 h by default
  CHECK(first_line({"--nfd-expiry", "15m"}) == "# +expiry-time=2026-12-02T00:15:00Z");
  CHECK(first_line({"--nfd-expiry", "900"}) == "# +expiry-time=2026-12-02T00:15:00Z");
  CHECK(first_line({"--nfd-expiry", "0"}).rfind("# gpucheck ", 0) == 0);
  one_error_line(run_gpucheck({"probe", "--nfd-expiry", "1h"}), "unknown option \"--nfd-expiry\" for `gpucheck probe`; `gpucheck probe -h` lists its options");
}

TEST_CASE("fleet writes a launcher's line and a node_exporter file too", "[cli][style][fleet]") {
  const std::vector<std::string> env{"GPUCHECK_TODAY=2026-12-02"};
  const auto one = run_gpucheck_with(env, GPUCHECK_SOURCE_DIR, {"fleet", "--format", "oneline", "tests/fixtures/golden"});
  CHECK(one.exit_code == 0);
  CHECK(one.out.rfind("PASS: ", 0) == 0);
  CHECK(one.out.size() <= 200);
  const auto prom = run_gpucheck_with(env, GPUCHECK_SOURCE_DIR, {"fleet", "--format", "prometheus", "tests/fixtures/golden"});
  CHECK_THAT(prom.out, Catch::Contains("\ngpucheck_fleet_verdict_pass 1\n") && Catch::Contains("gpucheck_fleet_reports{status=\"pass\"}") &&
                           Catch::Contains("gpucheck_fleet_skew_nodes{field=\"driver\"}"));
}

TEST_CASE("kernels show progress on a terminal, and nothing elsewhere", "[cli][style][fake_cuda]") {
  TempDir t;
  gpucheck::test::write_file(t.path() / "driver.txt",
                             "driver_version 12020\n"
                             "device name=\"NVIDIA H100 80GB HBM3\" uuid=GPU-5e7a1c0b-9f3d-4a6e-8b21-0c4d7e9f1a23 cc=9.0 sms=132 "
                             "mem=85520809984 bus=0000:18:00.0\n");
  const std::string env = "LD_LIBRARY_PATH=" + std::string(GPUCHECK_FAKE_CUDA_DIR) + " GPUCHECK_FAKE_CUDA=" + t.str() + "/driver.txt";
  const std::string cmd = env + " " + gpucheck::test::gpucheck_binary() + " kernels --precision fp32 --duration 1 --format oneline";
  // script(1) gives the run a terminal; what it shows comes back on our pipe.
  const auto tty = gpucheck::run_process("/usr/bin/script", {"-qec", cmd + " >/dev/null", "/dev/null"}, gpucheck::Millis(60000));
  REQUIRE(tty);
  CHECK_THAT(tty->out, Catch::Contains("gpucheck: GPU 1/1 (NVIDIA H100 80GB HBM3): fp32") &&
                           Catch::Contains("gpucheck: GPU 1/1 (NVIDIA H100 80GB HBM3): sustained, ") && Catch::EndsWith("\r\033[K"));
  const auto pipe = gpucheck::run_process("/bin/sh", {"-c", cmd}, gpucheck::Millis(60000));
  REQUIRE(pipe);
  CHECK(pipe->err.find("GPU 1/1") == std::string::npos);
  CHECK(pipe->err.find('\r') == std::string::npos);
}
