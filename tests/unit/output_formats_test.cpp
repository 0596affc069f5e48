// --format junit|prometheus|nfd|markdown and --output for check, verify and
// kernels: golden files per fixture host, usage errors, atomic files, and
// hostile text that must stay inside its format. Each consumer's own check
// (xmlschema, promtool, NFD's rules) runs in tests/formats/check-formats.sh.
#include <catch2/catch.hpp>
#include <filesystem>
#include <pugixml.hpp>
#include <regex>
#include <unistd.h>

#include "builtin/builtin_knowledge.hpp"
#include "gpucheck_run.hpp"
#include "report/machine_formats.hpp"
#include "report/nfd_labels.hpp"
#include "rules/knowledge.hpp"
#include "test_support.hpp"
#include "util/strings.hpp"

using namespace gpucheck;
using gpucheck::test::TempDir;
namespace fs = std::filesystem;

namespace {

const std::vector<std::string> kFormats{"junit", "prometheus", "nfd", "markdown", "oneline"};

CommandResult in_source_dir(const std::vector<std::string>& args) {
  return gpucheck::test::run_gpucheck_with({"GPUCHECK_TODAY=2026-12-02"}, GPUCHECK_SOURCE_DIR, args);
}

std::vector<std::string> names_in(const std::string& rel, bool dirs) {
  std::vector<std::string> out;
  for (auto& e : fs::directory_iterator(gpucheck::test::source_path(rel)))
    if (dirs && e.is_directory()) out.push_back(e.path().filename().string());
    else if (!dirs && e.path().extension() == ".json") out.push_back(e.path().stem().string());
  std::sort(out.begin(), out.end());
  return out;
}

void check_golden(const std::string& name, const std::vector<std::string>& args) {
  for (const auto& f : kFormats) {
    INFO(name << " --format " << f << " (regenerate deliberately with tests/fixtures/regen-golden.sh)");
    std::vector<std::string> a = args;
    a.insert(a.end(), {"--format", f});
    const auto r = in_source_dir(a);
    INFO(r.err);
    CHECK(r.exit_code <= 1);
    CHECK(r.out == gpucheck::test::read_file(gpucheck::test::source_path("tests/fixtures/golden/formats/" + name + "." + f)));
  }
}

// A finding whose every field is hostile: markup of each format, a
// terminal escape, a newline, a byte that is not UTF-8.
Finding hostile_finding() {
  Finding f;
  f.rule = "r\"ule";
  f.category = "cat|egory";
  f.severity = Severity::error;
  f.title = "</failure><testcase name=\"fake\"/> [link](http://x) | cell";
  f.message = "line one\nline two \x1b[2J \xff end \\ back \"quote\"";
  f.scope = "GPU \"0\" {a=\"b\"}\n# HELP fake";
  f.evidence.push_back({"driver.version", "550.54\x07", "/proc/x <script>"});
  f.fix = "`rm -rf` *now*";
  return f;
}

}  // namespace

TEST_CASE("every fixture host's check renders each machine format to its golden file", "[cli][formats]") {
  const auto hosts = names_in("tests/fixtures/hosts", true);
  REQUIRE(hosts.size() >= 6);
  for (const auto& h : hosts) check_golden(h, {"--root", "tests/fixtures/hosts/" + h, "check"});
  const auto reports = names_in("tests/data/kernels", false);
  REQUIRE(!reports.empty());
  for (const auto& k : reports) check_golden(k, {"--from", "tests/data/kernels/" + k + ".json", "check", "--require", "bf16"});
}

TEST_CASE("a --format that does not exist is a usage error for each command", "[cli][formats]") {
  for (const auto& cmd : {"check", "verify", "kernels"}) {
    INFO(cmd);
    const auto r = in_source_dir({cmd, "--format", "yaml"});
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Catch::Contains("--format") && Catch::Contains("yaml"));
    CHECK(r.out.empty());
  }
  // --json is --format json, and says one thing only.
  CHECK(in_source_dir({"--root", "tests/fixtures/hosts/cpu-only", "check", "--json", "--format", "junit"}).exit_code == 2);
  const auto json = in_source_dir({"--root", "tests/fixtures/hosts/cpu-only", "check", "--json"});
  const auto format_json = in_source_dir({"--root", "tests/fixtures/hosts/cpu-only", "check", "--format", "json"});
  CHECK(json.exit_code == 0);
  CHECK(json.out == format_json.out);
  CHECK_THAT(json.out, Catch::StartsWith("{\n  \"schema\": \"gpucheck.check/1\""));
}

TEST_CASE("the help of check, verify and kernels teaches the formats and --output", "[cli][formats]") {
  for (const auto& cmd : {"check", "verify", "kernels"}) {
    const auto r = in_source_dir({cmd, "--help"});
    INFO(cmd);
    CHECK(r.exit_code == 0);
    for (const auto& f : {"junit", "prometheus", "nfd", "markdown", "--output", "atomically"}) CHECK_THAT(r.out, Catch::Contains(f));
  }
}

TEST_CASE("a report written with --output is whole, replaces the old one, and keeps the exit code", "[cli][formats]") {
  TempDir t;
  const std::string file = t.str() + "/gpucheck.prom";
  gpucheck::test::write_file(file, "the previous file\n");
  const std::vector<std::string> args{"--root", "tests/fixtures/hosts/driver-mismatch", "check", "--format", "prometheus"};
  const auto to_stdout = in_source_dir(args);
  auto with_output = args;
  with_output.insert(with_output.end(), {"--output", file});
  const auto to_file = in_source_dir(with_output);
  INFO(to_file.err);
  CHECK(to_stdout.exit_code == 1);  // the fixture's driver mismatch fails the verdict
  CHECK(to_file.exit_code == to_stdout.exit_code);
  CHECK(to_file.out.empty());
  CHECK(gpucheck::test::read_file(file) == to_stdout.out);
  // Nothing but the report is left beside it: the temporary file was renamed.
  int entries = 0;
  for (auto& e : fs::directory_iterator(t.path())) {
    INFO(e.path());
    CHECK(e.path().filename() == "gpucheck.prom");
    ++entries;
  }
  CHECK(entries == 1);
  CHECK((fs::status(file).permissions() & fs::perms::others_read) != fs::perms::none);  // a collector runs as another user
}

TEST_CASE("with --output, a link or a missing directory is refused and left as it was", "[cli][formats]") {
  TempDir t;
  const std::string target = t.str() + "/target", link = t.str() + "/link";
  gpucheck::test::write_file(target, "keep me\n");
  REQUIRE(::symlink(target.c_str(), link.c_str()) == 0);
  const auto r = in_source_dir({"--root", "tests/fixtures/hosts/cpu-only", "check", "--format", "nfd", "--output", link});
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Catch::Contains("symbolic link"));
  CHECK(fs::is_symlink(link));
  CHECK(gpucheck::test::read_file(target) == "keep me\n");
  const auto missing = in_source_dir({"--root", "tests/fixtures/hosts/cpu-only", "check", "--output", t.str() + "/no/such/dir/x"});
  CHECK(missing.exit_code == 2);
  CHECK_THAT(missing.err, Catch::Contains("--output"));
}

TEST_CASE("verify speaks the formats too: its status as an NFD label, its drifts as findings", "[cli][formats]") {
  const auto same = in_source_dir({"--root", "tests/fixtures/hosts/cpu-only", "verify", "tests/fixtures/golden/cpu-only.lock", "--format", "nfd"});
  INFO(same.err);
  CHECK(same.exit_code == 0);
  CHECK_THAT(same.out, Catch::Contains("\nfeature.node.kubernetes.io/gpucheck.verify.status=pass\n"));
  // Another host against cpu-only's lock drifts: a failing JUnit test case per breaking drift.
  const auto other = in_source_dir({"--root", "tests/fixtures/hosts/h100-sxm-8gpu", "verify", "tests/fixtures/golden/cpu-only.lock", "--format", "junit"});
  CHECK(other.exit_code == 1);
  pugi::xml_document doc;
  REQUIRE(doc.load_string(other.out.c_str()));
  const auto suite = doc.child("testsuites").child("testsuite");
  CHECK(suite.attribute("failures").as_int() >= 2);  // the verdict and at least one drift
  CHECK(std::string(suite.find_child_by_attribute("testcase", "name", "verdict").child("failure").attribute("message").value()).rfind("fail", 0) == 0);
  const auto json = in_source_dir({"--root", "tests/fixtures/hosts/h100-sxm-8gpu", "verify", "tests/fixtures/golden/cpu-only.lock", "--json"});
  CHECK_THAT(json.out, Catch::Contains("\"schema\": \"gpucheck.verify/1\"") && Catch::Contains("\"verdict\": \"fail\""));
  CHECK(in_source_dir({"verify", "tests/fixtures/golden/cpu-only.lock", "--fleet", "tests/fixtures/golden", "--format", "junit"}).exit_code == 2);
}

TEST_CASE("kernels that cannot run here fail in every format, not pass", "[cli][formats][real-host]") {
  if (fs::exists("/proc/driver/nvidia/version")) return;  // a GPU machine runs them for real
  const auto r = in_source_dir({"kernels", "--format", "junit"});
  CHECK(r.exit_code == 2);
  pugi::xml_document doc;
  REQUIRE(doc.load_string(r.out.c_str()));
  CHECK(doc.child("testsuites").attribute("failures").as_int() >= 2);  // the verdict and the run
  const auto prom = in_source_dir({"kernels", "--format", "prometheus"});
  CHECK_THAT(prom.out, Catch::Contains("gpucheck_verdict_pass{command=\"kernels\",strict=\"false\"} 0\n"));
}

TEST_CASE("hostile text stays inside each format", "[formats]") {
  const Finding f = hostile_finding();
  RunReport r;
  r.command = "check";
  r.version = "0.1.0";
  r.source = "--root /tmp/\x1b]0;title\x07";
  r.outcome = Outcome::fail;
  r.findings = {f};
  r.checks.push_back({"GPU 0 (\"x\"\n)", "bf16", CheckOutcome::Status::failed, "wrong \\ \"x\"", {}, "0", "precision"});

  SECTION("JUnit: one document, the text as attribute and character data") {
    const std::string xml = render_junit(r);
    pugi::xml_document doc;
    REQUIRE(doc.load_string(xml.c_str()));
    const auto suite = doc.child("testsuites").child("testsuite");
    CHECK(suite.attribute("tests").as_int() == 3);  // the verdict, the finding, the check
    CHECK(suite.attribute("failures").as_int() == 3);
    int cases = 0;
    for (auto tc : suite.children("testcase")) {
      ++cases;
      CHECK(std::string(tc.attribute("name").value()) != "fake");
    }
    CHECK(cases == 3);
    const auto failure = suite.find_child_by_attribute("testcase", "name", "r\"ule (GPU \"0\" {a=\"b\"}\n# HELP fake)").child("failure");
    CHECK(std::string(failure.attribute("message").value()) == f.title);
    CHECK_THAT(failure.child_value(), Catch::Contains("\\x1b[2J") && Catch::Contains("\xEF\xBF\xBD"));
    CHECK(xml.find('\x1b') == std::string::npos);
    CHECK(xml.find('\x07') == std::string::npos);
  }
  SECTION("Prometheus: every line a comment or one well-formed sample") {
    const std::string text = render_prometheus(r);
    static const std::regex sample(R"re(^[a-z_]+\{([a-z_]+="([^"\\]|\\[\\"n])*")(,[a-z_]+="([^"\\]|\\[\\"n])*")*\} -?[0-9]+$)re");
    int samples = 0;
    for (auto line : split_lines(text)) {
      if (line.empty() || line.substr(0, 2) == "# ") {
        CHECK((line.empty() || starts_with(line, "# HELP gpucheck_") || starts_with(line, "# TYPE gpucheck_")));
        continue;
      }
      INFO(line);
      CHECK(std::regex_match(std::string(line), sample));
      ++samples;
    }
    CHECK(samples >= 6);
    CHECK_THAT(text, Catch::Contains("scope=\"GPU \\\"0\\\" {a=\\\"b\\\"}\\n# HELP fake\""));
    CHECK(text.find('\x1b') == std::string::npos);
  }
  SECTION("Markdown: the finding is one table row of seven cells") {
    const std::string md = render_markdown(r);
    std::string row;
    for (auto line : split_lines(md))
      if (starts_with(line, "| error |")) row = std::string(line);
    REQUIRE_FALSE(row.empty());
    int pipes = 0;
    for (std::size_t i = 0; i < row.size(); ++i)
      if (row[i] == '|' && (i == 0 || row[i - 1] != '\\')) ++pipes;
    CHECK(pipes == 8);
    CHECK(md.find("[link]") == std::string::npos);
    CHECK(md.find("<script>") == std::string::npos);
    CHECK(md.find('\x1b') == std::string::npos);
  }
}

TEST_CASE("NFD labels: a fact that is no label value is left out with a comment, never written", "[formats][nfd]") {
  auto k = load_knowledge("");
  REQUIRE(k);
  Facts facts;
  facts.nvidia_driver.kernel_module.version = "550.54.14\nfeature.node.kubernetes.io/evil=1";
  RunReport r;
  r.command = "check";
  r.version = "0.1.0";
  r.facts = &facts;
  r.matrix = &k->matrix;
  const std::string text = render_nfd(r);
  int labels = 0;
  for (auto line : split_lines(text)) {
    if (line.empty() || line[0] == '#') continue;
    const auto eq = line.find('=');
    INFO(line);
    REQUIRE(eq != std::string_view::npos);
    CHECK(nfd_label_name_ok(line.substr(0, eq)));
    CHECK(nfd_label_value_ok(line.substr(eq + 1)));
    CHECK_FALSE(starts_with(line, "feature.node.kubernetes.io/evil"));
    ++labels;
  }
  CHECK(labels >= 1);  // the status
  CHECK_THAT(text, Catch::Contains("\nfeature.node.kubernetes.io/gpucheck.check.status=pass\n"));
  CHECK_THAT(text, Catch::Contains("# gpucheck: left out feature.node.kubernetes.io/gpucheck.driver.version"));
}

TEST_CASE("NFD's label rules, as nfd-master applies them", "[formats][nfd]") {
  const std::string ns = "feature.node.kubernetes.io/";
  CHECK(nfd_label_name_ok(ns + "gpucheck.check.status"));
  CHECK(nfd_label_name_ok(ns + std::string(63, 'n')));
  CHECK_FALSE(nfd_label_name_ok(ns + std::string(64, 'n')));
  CHECK(nfd_label_name_ok("gpu.feature.node.kubernetes.io/x"));
  CHECK(nfd_label_name_ok("vendor.example.com/x_y-z.1"));
  CHECK_FALSE(nfd_label_name_ok("status"));                  // unprefixed
  CHECK_FALSE(nfd_label_name_ok("kubernetes.io/x"));         // denied
  CHECK_FALSE(nfd_label_name_ok("node.kubernetes.io/x"));    // denied
  CHECK_FALSE(nfd_label_name_ok("Feature.node.kubernetes.io/x"));
  CHECK_FALSE(nfd_label_name_ok(ns + "-x"));
  CHECK_FALSE(nfd_label_name_ok(ns + "x/y"));
  CHECK_FALSE(nfd_label_name_ok(std::string(254, 'a') + "/x"));
  CHECK(nfd_label_value_ok(""));
  CHECK(nfd_label_value_ok("550.54.14"));
  CHECK(nfd_label_value_ok(std::string(63, 'v')));
  CHECK_FALSE(nfd_label_value_ok(std::string(64, 'v')));
  CHECK_FALSE(nfd_label_value_ok("12.4 "));
  CHECK_FALSE(nfd_label_value_ok("a,b"));
  CHECK_FALSE(nfd_label_value_ok(".5"));
}
