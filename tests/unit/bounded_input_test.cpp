// Every input is bounded: a read that cannot end is refused or stopped by
// --timeout, and what one input may become (lines, GPUs) has a limit that
// says so (docs/robustness.md, Limits; the 2026-12-03 audit's D3, D9-D12).
#include <catch2/catch.hpp>

#include <sys/stat.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "facts/fact_limits.hpp"
#include "gpucheck_run.hpp"
#include "test_support.hpp"

using gpucheck::test::run_gpucheck;
using gpucheck::test::TempDir;
using gpucheck::test::write_file;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

const std::string kH100 = gpucheck::test::source_path("tests/fixtures/hosts/h100-sxm-8gpu");

// A real collect_env (tests/data/reports), repeated until the paste has at least `bytes`.
std::string collect_env_times(std::size_t bytes) {
  const auto one = gpucheck::test::read_file(gpucheck::test::source_path("tests/data/reports/collect_env/pt139298-h100x8-torch2.5.0rc10-partial.txt"));
  std::string out;
  while (out.size() < bytes) out += one + "\n";
  return out;
}

}  // namespace

TEST_CASE("a --from report is a regular file or standard input, never a wait forever", "[cli][bad-input]") {
  TempDir t;
  const auto fifo = t.str() + "/report.fifo";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  // A FIFO blocked the open until a writer came; it is refused unopened.
  const auto r = run_gpucheck({"--timeout", "2", "check", "--from", fifo});
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Catch::Contains(fifo) && Catch::Contains("not a regular file"));
  const auto dir = run_gpucheck({"check", "--from", t.str()});
  CHECK(dir.exit_code == 2);
  CHECK_THAT(dir.err, Catch::Contains("is a directory"));

  // Standard input whose writer never closes it (the shell's fd 3 holds the
  // FIFO open for writing): read until --timeout, then a clear error.
  auto waited = gpucheck::run_process(
      "/bin/sh", {"-c", "exec 3<>\"$1\"; exec \"$0\" --timeout 1 check --from - < \"$1\"", gpucheck::test::gpucheck_binary(), fifo},
      gpucheck::Millis(60000));
  REQUIRE(waited);
  REQUIRE_FALSE(waited->timed_out);
  CHECK(waited->exit_code == 2);
  CHECK_THAT(waited->err, Catch::Contains("standard input") && Catch::Contains("did not end before the run's --timeout"));
}

TEST_CASE("the run's --timeout stops reading a large paste and says where", "[cli][bad-input]") {
  TempDir t;
  const auto path = t.str() + "/big.txt";
  write_file(path, collect_env_times(24u << 20));
  const auto r = run_gpucheck({"--timeout", "0.1", "check", "--from", path});
  INFO(r.err);
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Catch::Contains("reading stopped at line") && Catch::Contains("--timeout"));
}

TEST_CASE("a report is one node's: more GPUs or lines than the limits is refused, saying which", "[cli][bad-input]") {
  TempDir t;
  // 1,100 rows of nvidia-smi --query-gpu (the audit's 100,000 became 187 MB of JSON).
  std::string csv = "index, name, driver_version\n";
  for (int i = 0; i < 1100; ++i) csv += std::to_string(i) + ", NVIDIA H100 80GB HBM3, 550.54.14\n";
  write_file(t.str() + "/gpus.csv", csv);
  const auto gpus = run_gpucheck({"check", "--from", t.str() + "/gpus.csv", "--json"});
  CHECK(gpus.exit_code == 2);
  CHECK(gpus.out.empty());
  CHECK_THAT(gpus.err, Catch::Contains("GPUs; a report is one node's, at most 1024"));
  CHECK_THAT(gpus.err, Catch::Contains("gpus.csv:1-"));
  // The same with 8 rows is a report.
  csv.resize(csv.find("8, NVIDIA"));
  write_file(t.str() + "/eight.csv", csv);
  const auto eight = run_gpucheck({"probe", "--from", t.str() + "/eight.csv", "--json"});
  REQUIRE(eight.exit_code == 0);
  CHECK(json::parse(eight.out)["nvidia_smi"]["gpus"].size() == 8);

  // A heading over millions of blank lines: 16 bytes a line of bookkeeping.
  write_file(t.str() + "/blank.txt", "### Driver version\n" + std::string(gpucheck::kMaxReportLines + 10, '\n') + "550.54.14\n");
  const auto blank = run_gpucheck({"check", "--from", t.str() + "/blank.txt"});
  CHECK(blank.exit_code == 2);
  CHECK_THAT(blank.err, Catch::Contains("lines; a report is one node's"));

  // A collect_env whose pip list is no one environment's (the bench's
  // 64 MiB of them took 1 GB): refused at the limit, read below it.
  const std::string env =
      gpucheck::test::read_file(gpucheck::test::source_path("tests/data/reports/collect_env/pt28321-t4-torch1.3.0-driver410.txt"));
  const auto at = env.find('\n', env.find("Versions of relevant libraries:")) + 1;
  auto with_pins = [&](std::size_t n) {
    std::string pins;
    for (std::size_t i = 0; i < n; ++i) pins += "[pip3] pkg-" + std::to_string(i) + "==1.0\n";
    return env.substr(0, at) + pins + env.substr(at);
  };
  write_file(t.str() + "/many.txt", with_pins(gpucheck::kMaxPackagesPerEnv + 1));
  const auto many = run_gpucheck({"check", "--from", t.str() + "/many.txt"});
  CHECK(many.exit_code == 2);
  CHECK_THAT(many.err, Catch::Contains("more than 100000 packages in one Python environment"));
  write_file(t.str() + "/enough.txt", with_pins(gpucheck::kMaxPackagesPerEnv - 100));
  const auto enough = run_gpucheck({"probe", "--from", t.str() + "/enough.txt", "--json"});
  REQUIRE(enough.exit_code == 0);
  CHECK(json::parse(enough.out)["software"]["python"][0]["distributions"].size() >= gpucheck::kMaxPackagesPerEnv - 100);

  // --gpus names the same limit, not a 309-digit range.
  const auto negative = run_gpucheck({"check", "--gpus", "-1"});
  CHECK(negative.exit_code == 2);
  CHECK_THAT(negative.err, Catch::Contains("gpucheck: error: --gpus: expected a whole number of at least 1 and at most 1024, got \"-1\""));
  CHECK(negative.err.size() < 200);
}

TEST_CASE("a paste with a byte that is not UTF-8 is read, and the note says where", "[cli][bad-input]") {
  TempDir t;
  std::string text = gpucheck::test::read_file(gpucheck::test::source_path("tests/data/reports/collect_env/pt139298-h100x8-torch2.5.0rc10-partial.txt"));
  const auto second_line = text.find('\n') + 1;
  text.insert(text.find('\n', second_line), " caf\xe9");
  write_file(t.str() + "/latin1.txt", text);
  const auto r = run_gpucheck({"probe", "--from", t.str() + "/latin1.txt", "--json"});
  REQUIRE(r.exit_code == 0);
  std::string note;
  const auto facts = json::parse(r.out);
  for (auto& n : facts["notes"])
    if (n["item"] == "text encoding") note = n["detail"].get<std::string>();
  CHECK_THAT(note, Catch::Contains("first at line 2, column"));

}

// What people produce: PowerShell's `>` writes UTF-16LE with a byte order
// mark, an old editor Windows-1252, a terminal its colour codes, a bad copy
// a NUL. Each is read as the text it is, the note saying how.
TEST_CASE("a paste in UTF-16, Windows-1252, with a NUL or colour codes is read", "[cli][bad-input][paste]") {
  TempDir t;
  // A real nvidia-smi table, ASCII only, so each encoding below is exact.
  const std::string smi = gpucheck::test::read_file(gpucheck::test::source_path("tests/data/reports/nvsmi_table/a800-pcie-2gpu_580.119.02.txt"));
  auto utf16 = [&](bool little) {
    std::string out;
    for (char c : smi) {
      out += little ? c : '\0';
      out += little ? '\0' : c;
    }
    return out;
  };
  auto read = [&](const std::string& file, const std::string& bytes) {
    write_file(t.str() + "/" + file, bytes);
    const auto r = run_gpucheck({"probe", "--from", t.str() + "/" + file, "--json"});
    INFO(file << ": " << r.err);
    REQUIRE(r.exit_code == 0);
    const auto facts = json::parse(r.out);
    std::string note;
    for (auto& n : facts["notes"])
      if (n["item"] == "text encoding") note = n["detail"].get<std::string>();
    CHECK(facts["nvidia_smi"]["driver_version"] == "580.119.02");
    CHECK(facts["nvidia_smi"]["gpus"].size() == 2);
    return note;
  };
  CHECK(read("bom-le.txt", "\xff\xfe" + utf16(true)) == "UTF-16LE, read as such");
  CHECK(read("bom-be.txt", "\xfe\xff" + utf16(false)) == "UTF-16BE, read as such");
  CHECK(read("le.txt", utf16(true)) == "UTF-16LE without a byte order mark, read as such");
  // One NUL from a bad copy: dropped, and where it was.
  std::string nul = smi;
  nul.insert(nul.find('\n') + 2, 1, '\0');
  CHECK_THAT(read("nul.txt", nul), Catch::Contains("1 control byte dropped, the first byte 0x00 at line 2, column 2"));
  // Colour codes, as a terminal's copy keeps them: gone without a note.
  std::string colour = "\x1b[1;32m" + smi + "\x1b[0m\x1b]0;title\x07";
  CHECK(read("colour.txt", colour).empty());
  // Windows-1252: "café" and a curly quote in a line of prose above the table.
  const auto cp1252 = read("cp1252.txt", "Mon GPU ne marche pas, caf\xe9 \x93merci\x94\n" + smi);
  CHECK_THAT(cp1252, Catch::Contains("read as Windows-1252"));
  const auto r = run_gpucheck({"check", "--from", t.str() + "/cp1252.txt"});
  CHECK_THAT(r.out, Catch::Contains("caf\xc3\xa9 \xe2\x80\x9cmerci\xe2\x80\x9d"));
}

TEST_CASE("fleet lists a *.json that is a FIFO or a directory as unreadable", "[cli][bad-input][fleet]") {
  TempDir t;
  const auto good = run_gpucheck({"--root", kH100, "check", "--json"});
  REQUIRE(good.exit_code == 0);
  fs::create_directories(t.path() / "fleet/c.json");
  write_file(t.path() / "fleet/a.json", good.out);
  REQUIRE(::mkfifo((t.path() / "fleet/b.json").c_str(), 0600) == 0);
  const auto r = run_gpucheck({"fleet", (t.path() / "fleet").string(), "--json"});
  INFO(r.out << r.err);
  CHECK(r.exit_code == 1);
  const auto j = json::parse(r.out);
  CHECK_THAT(r.out, Catch::Contains("b.json") && Catch::Contains("c.json"));
}

TEST_CASE("a 20 MB string in a matrix is named by its start and size, not echoed", "[cli][bad-input][matrix]") {
  TempDir t;
  json m = json::parse(gpucheck::test::read_file(gpucheck::test::source_path("matrix/gpus.json")));
  m["schema"] = std::string(20'000'000, 'x');
  write_file(t.str() + "/big.json", m.dump());
  const auto r = run_gpucheck({"matrix", "validate", t.str() + "/big.json"});
  CHECK(r.exit_code == 1);
  CHECK_THAT(r.out, Catch::Contains("(20000000 bytes)"));
  CHECK(r.out.size() + r.err.size() < 4096);
}
