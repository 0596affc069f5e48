// The rule engine on its own: condition parsing and its errors, three-valued
// evaluation, rule validation, placeholders; then the `check`, `explain`,
// `recommend` and `matrix` commands as a launcher runs them (exit codes, JSON).
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <regex>

#include "builtin/builtin_knowledge.hpp"
#include "fake_cuda_support.hpp"
#include "host/process.hpp"
#include "matrix/matrix_document.hpp"
#include "report/rules_doc.hpp"
#include "rules/engine.hpp"
#include "rules/explain.hpp"
#include "rules/knowledge.hpp"
#include "gpucheck_run.hpp"
#include "knowledge_support.hpp"
#include "test_support.hpp"

using namespace gpucheck;
using nlohmann::json;
using gpucheck::test::run_gpucheck;

namespace {

Condition parse(const std::string& text, Scope scope, std::vector<Problem>& problems) {
  return parse_condition(json::parse(text), "t", scope, problems);
}

Condition parse_ok(const std::string& text, Scope scope = Scope::host) {
  std::vector<Problem> problems;
  auto c = parse(text, scope, problems);
  INFO(text);
  REQUIRE(problems.empty());
  return c;
}

std::string first_problem(const std::string& text, Scope scope = Scope::host) {
  std::vector<Problem> problems;
  parse(text, scope, problems);
  REQUIRE(!problems.empty());
  return problems.front().where + ": " + problems.front().detail;
}

std::string fixture(const std::string& name) { return test::source_path("tests/fixtures/hosts/" + name); }

std::vector<std::string> categories_of(const json& check) {
  std::vector<std::string> out;
  for (auto& f : check["findings"])
    if (f["severity"] != "info") out.push_back(f["category"]);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace

TEST_CASE("conditions: versions compare numerically, lists by membership, facts with facts", "[rules]") {
  FactMap f{{"driver.version", FactValue::of_version("535.104.05", "proc")},
            {"framework.cuda_compat_min_driver", FactValue::of_version("525.60.13", "matrix")},
            {"gpu.precisions", FactValue::of_list({"fp16", "bf16", "tf32"}, "matrix")},
            {"gpu.count", FactValue::of_number(8, "pci")},
            {"libcuda.stub", FactValue::of_bool(false, "ld")}};
  CHECK(evaluate(parse_ok(R"({"fact":"driver.version","op":"<","value":"535.104.10"})"), f) == Tri::yes);
  // 535.104.05 > 535.99: numeric, not text, ordering.
  CHECK(evaluate(parse_ok(R"({"fact":"driver.version","op":">","value":"535.99"})"), f) == Tri::yes);
  CHECK(evaluate(parse_ok(R"({"fact":"driver.version","op":"==","value":"535.104.5"})"), f) == Tri::yes);
  CHECK(evaluate(parse_ok(R"({"fact":"driver.version","op":"<","other":"framework.cuda_compat_min_driver"})", Scope::framework), f) == Tri::no);
  CHECK(evaluate(parse_ok(R"({"fact":"gpu.precisions","op":"contains","value":"bf16"})", Scope::gpu), f) == Tri::yes);
  CHECK(evaluate(parse_ok(R"({"fact":"gpu.precisions","op":"not_contains","value":"fp8"})", Scope::gpu), f) == Tri::yes);
  CHECK(evaluate(parse_ok(R"({"fact":"gpu.count","op":">=","value":8})"), f) == Tri::yes);
  CHECK(evaluate(parse_ok(R"({"fact":"libcuda.stub","op":"==","value":true})"), f) == Tri::no);
  CHECK(evaluate(parse_ok(R"({"fact":"driver.version","op":"in","values":["535.104.05","550.54.15"]})"), f) == Tri::yes);
}

TEST_CASE("conditions: a fact nobody read is unknown, and unknown never fires", "[rules]") {
  FactMap f{{"gpu.count", FactValue::of_number(8, "pci")}};
  const auto missing = parse_ok(R"({"fact":"driver.version","op":"<","value":"535"})");
  CHECK(evaluate(missing, f) == Tri::unknown);
  // not(unknown) is still unknown: absence of evidence is not evidence.
  CHECK(evaluate(parse_ok(R"({"not":{"fact":"driver.version","op":"<","value":"535"}})"), f) == Tri::unknown);
  CHECK(evaluate(parse_ok(R"({"all":[{"fact":"gpu.count","op":">","value":0},{"fact":"driver.version","op":"<","value":"535"}]})"), f) == Tri::unknown);
  CHECK(evaluate(parse_ok(R"({"all":[{"fact":"gpu.count","op":">","value":9},{"fact":"driver.version","op":"<","value":"535"}]})"), f) == Tri::no);
  CHECK(evaluate(parse_ok(R"({"any":[{"fact":"gpu.count","op":">","value":0},{"fact":"driver.version","op":"<","value":"535"}]})"), f) == Tri::yes);
  CHECK(evaluate(parse_ok(R"({"fact":"driver.version","op":"absent"})"), f) == Tri::yes);
  CHECK(evaluate(parse_ok(R"({"fact":"gpu.count","op":"present"})"), f) == Tri::yes);
}

TEST_CASE("conditions: malformed ones name the JSON path and what was expected", "[rules][bad-input]") {
  CHECK_THAT(first_problem(R"({"fact":"driver.verison","op":"<","value":"535"})"),
             Catch::Contains("t/fact") && Catch::Contains("unknown fact \"driver.verison\""));
  CHECK_THAT(first_problem(R"({"fact":"libcuda.stub","op":"<","value":true})"),
             Catch::Contains("t/op") && Catch::Contains("does not apply to boolean"));
  CHECK_THAT(first_problem(R"({"fact":"gpu.count","op":">","value":"eight"})"), Catch::Contains("expected a number"));
  CHECK_THAT(first_problem(R"({"fact":"driver.version","op":"<","value":"new"})"), Catch::Contains("expected a version"));
  CHECK_THAT(first_problem(R"({"fact":"gpu.compute_capability","op":"<","value":"8.0"})", Scope::host),
             Catch::Contains("scope \"gpu\""));
  CHECK_THAT(first_problem(R"({"fact":"driver.version","op":"<"})"), Catch::Contains("needs a \"value\""));
  CHECK_THAT(first_problem(R"({"all":[]})"), Catch::Contains("t/all") && Catch::Contains("non-empty array"));
  CHECK_THAT(first_problem(R"({"fact":"driver.version","op":"~","value":"1"})"), Catch::Contains("unknown operator"));
  CHECK_THAT(first_problem(R"({"fact":"driver.version","op":"<","value":"1","vlaue":"2"})"), Catch::Contains("unknown key \"vlaue\""));
}

TEST_CASE("placeholders are filled from the subject's facts, unknown ones named", "[rules]") {
  FactMap f{{"driver.version", FactValue::of_version("470.82.01", "proc")}};
  CHECK(fill_placeholders("driver {driver.version}, CUDA {driver.cuda}", f) == "driver 470.82.01, CUDA <the newest CUDA the driver supports>");
  // A name the catalogue lacks is named as written, still never left in braces.
  CHECK(fill_placeholders("{no.such_fact}", f) == "<no.such_fact>");
}

namespace {

Subject gpu_subject(const std::string& address, double width) {
  Subject s(Scope::gpu, "GPU " + address + " (H100)",
            {{"gpu.address", FactValue::of_text(address, "pci")}, {"gpu.name", FactValue::of_text("H100", "smi")},
             {"gpu.pcie_width", FactValue::of_number(width, "smi")}});
  s.gpu_address = address;
  s.gpu_name = "H100";
  return s;
}

RuleCheck width_rule(const std::string& message) {
  return parse_rules({MatrixDocument{"t.json", R"({"schema":"gpucheck.matrix/1","rules":[{"id":"r","category":"hardware-health",
      "severity":"warning","scope":"gpu","title":"T","when":{"fact":"gpu.pcie_width","op":"<","value":16},
      "message":")" + message + R"(","fix":"reseat {gpu.address}", "action":"service","sources":["https://example.org/a"]}]})"}});
}

}  // namespace

TEST_CASE("the same fault on several GPUs is one finding naming them compactly", "[rules]") {
  const auto rules = width_rule("{gpu.name} at {gpu.address} runs at x{gpu.pcie_width}");
  REQUIRE(rules.problems.empty());
  std::vector<Subject> subjects;
  for (const char* bus : {"18", "2a", "3a"}) subjects.push_back(gpu_subject(std::string("0000:") + bus + ":00.0", 8));
  subjects.push_back(gpu_subject("0000:5d:00.0", 16));
  auto findings = evaluate_rules(rules.rules, subjects);
  REQUIRE(findings.size() == 1);
  const auto& f = findings[0];
  CHECK(f.scope == "3 GPUs (H100): 0000:{18,2a,3a}:00.0");
  CHECK(f.gpus == std::vector<std::string>{"0000:18:00.0", "0000:2a:00.0", "0000:3a:00.0"});
  // Each GPU's own address is in its message: the finding names them all.
  CHECK(f.message == "H100 at 0000:{18,2a,3a}:00.0 runs at x8");
  CHECK(f.details.empty());
  CHECK(f.fix == "reseat 0000:18:00.0,0000:2a:00.0,0000:3a:00.0");
  CHECK(f.action == Action::service);
  REQUIRE(f.evidence.size() == 1);
  CHECK(f.evidence[0].source == "smi");
}

TEST_CASE("where GPUs differ, one finding still: the first's message, the others as details", "[rules]") {
  const auto rules = width_rule("{gpu.name} runs at x{gpu.pcie_width}");
  std::vector<Subject> subjects{gpu_subject("0000:18:00.0", 8), gpu_subject("0000:2a:00.0", 4), gpu_subject("0000:3a:00.0", 8)};
  auto findings = evaluate_rules(rules.rules, subjects);
  REQUIRE(findings.size() == 1);
  CHECK(findings[0].scope == "3 GPUs (H100): 0000:{18,2a,3a}:00.0");
  CHECK(findings[0].message == "0000:{18,3a}:00.0: H100 runs at x8");
  CHECK(findings[0].details == std::vector<std::string>{"0000:2a:00.0: H100 runs at x4"});
  // One GPU alone keeps its plain label.
  findings = evaluate_rules(rules.rules, {gpu_subject("0000:18:00.0", 8)});
  REQUIRE(findings.size() == 1);
  CHECK(findings[0].scope == "GPU 0000:18:00.0 (H100)");
  CHECK(findings[0].gpus == std::vector<std::string>{"0000:18:00.0"});
}

TEST_CASE("broken rule files are rejected with file, JSON path and reason", "[rules][bad-input]") {
  const std::map<std::string, std::string> expected = {
      {"unknown-fact.json", "/rules/0/when/fact: unknown fact \"driver.verison\""},
      {"op-for-kind.json", "/rules/0/when/op: operator \"<\" does not apply to boolean fact \"libcuda.stub\""},
      {"bad-value-type.json", "/rules/0/when/value: expected a number"},
      {"scope-mismatch.json", "/rules/0/when/fact: fact \"gpu.compute_capability\" belongs to scope \"gpu\""},
      {"unknown-category.json", "/rules/0/category: expected one of the categories"},
      {"unknown-placeholder.json", "/rules/0/message: placeholder {driver.versoin} names no fact"},
      {"duplicate-id.json", "/rules/1/id: duplicate rule id \"x-rule\""},
      {"missing-when.json", "/rules/0/when: required field \"when\" is missing"},
      {"unknown-key.json", "/rules/0/explain: unknown key \"explain\""},
      {"http-source.json", "/rules/0/sources/0: expected an https:// URL"},
  };
  for (auto& [file, want] : expected) {
    INFO(file);
    const auto path = test::source_path("tests/data/matrix-broken-rules/" + file);
    auto docs = embedded_matrix_documents();
    docs.push_back(MatrixDocument{path, test::read_file(path)});
    auto checked = check_knowledge(docs);
    REQUIRE_FALSE(checked.knowledge);
    REQUIRE(checked.problems.size() >= 1);
    CHECK_THAT(checked.problems.front().where + ": " + checked.problems.front().detail,
               Catch::StartsWith(path) && Catch::Contains(want));
  }
}

TEST_CASE("matrix validate lists problems (exit 1), check refuses to judge with a broken matrix (exit 2)", "[rules][cli][bad-input]") {
  // The project's matrix with one broken rule file added.
  test::TempDir dir;
  std::filesystem::copy(test::source_path("matrix"), dir.path() / "matrix", std::filesystem::copy_options::recursive);
  std::filesystem::copy(test::source_path("tests/data/matrix-broken-rules/unknown-fact.json"), dir.path() / "matrix/rules/zz-broken.json");
  const std::string broken = (dir.path() / "matrix").string();
  auto v = run_gpucheck({"matrix", "validate", broken});
  CHECK(v.exit_code == 1);
  CHECK_THAT(v.out, Catch::Contains("unknown fact \"driver.verison\"") && Catch::Contains("will not run on this matrix"));
  auto ok = run_gpucheck({"matrix", "validate", test::source_path("matrix")});
  CHECK(ok.exit_code == 0);
  CHECK_THAT(ok.out, Catch::Contains("valid matrix"));
  auto c = run_gpucheck({"--matrix", broken, "--root", fixture("h100-sxm-8gpu"), "check", "--json"});
  CHECK(c.exit_code == 2);
  CHECK(c.out.empty());
  CHECK_THAT(c.err, Catch::Contains("the matrix is not valid, nothing was judged") && Catch::Contains("driver.verison"));
  CHECK(run_gpucheck({"matrix", "validate", "/nonexistent/matrix.json"}).exit_code == 2);
}

TEST_CASE("check: exit codes a launcher relies on", "[rules][cli]") {
  // Healthy: 0. A driver mismatch: 1. A warning alone: 0, but 1 under --strict.
  CHECK(run_gpucheck({"--root", fixture("h100-sxm-8gpu"), "check"}).exit_code == 0);
  CHECK(run_gpucheck({"--root", fixture("driver-mismatch"), "check"}).exit_code == 1);
  CHECK(run_gpucheck({"--root", fixture("a100-sxm4-4gpu"), "check"}).exit_code == 0);
  CHECK(run_gpucheck({"--root", fixture("a100-sxm4-4gpu"), "check", "--strict"}).exit_code == 1);
  // Requirements: the A100 (compute capability 8.0) has no FP8; the H100 node has 8 GPUs of 80 GB.
  CHECK(run_gpucheck({"--root", fixture("a100-sxm4-4gpu"), "check", "--require", "bf16,fp8"}).exit_code == 1);
  CHECK(run_gpucheck({"--root", fixture("h100-sxm-8gpu"), "check", "--require", "bf16,fp8", "--min-compute", "9.0", "--gpus", "8",
                  "--min-memory", "79G"}).exit_code == 0);
  CHECK(run_gpucheck({"--root", fixture("h100-sxm-8gpu"), "check", "--gpus", "16"}).exit_code == 1);
  CHECK(run_gpucheck({"--root", fixture("h100-sxm-8gpu"), "check", "--min-memory", "100GiB"}).exit_code == 1);
  // Bad arguments: 2, with the reason.
  auto bad = run_gpucheck({"check", "--require", "fp7"});
  CHECK(bad.exit_code == 2);
  CHECK_THAT(bad.err, Catch::Contains("fp7"));
  CHECK(run_gpucheck({"check", "--min-compute", "nine"}).exit_code == 2);
  CHECK(run_gpucheck({"check", "--min-memory", "lots"}).exit_code == 2);
  CHECK(run_gpucheck({"--root", "/nonexistent", "check"}).exit_code == 2);
  // --from: a missing file, an unknown format, and --root beside it.
  auto missing = run_gpucheck({"--from", "/nonexistent/report.txt", "check"});
  CHECK(missing.exit_code == 2);
  CHECK_THAT(missing.err, Catch::Contains("--from /nonexistent/report.txt: no such report"));
  test::TempDir t;
  test::write_file(t.path() / "prose.txt", "my GPU does not work, please help\n");
  // Prose is read; it shows nothing a verdict needs.
  auto prose = run_gpucheck({"--from", (t.path() / "prose.txt").string(), "check"});
  CHECK(prose.exit_code == 3);
  CHECK_THAT(prose.out, Catch::Contains("1: my GPU does not work, please help") && Catch::Contains("INCOMPLETE"));
  auto both = run_gpucheck({"--from", (t.path() / "prose.txt").string(), "--root", fixture("h100-sxm-8gpu"), "check"});
  CHECK(both.exit_code == 2);
  CHECK_THAT(both.err, Catch::Contains("--from and --root cannot be used together"));
}

TEST_CASE("check --kernels: the live machine only, results a report carries are judged", "[rules][cli][kernels]") {
  const std::string synthetic = test::source_path("tests/data/kernels/synthetic-h100-bf16-wrong.json");
  auto root = run_gpucheck({"--root", fixture("h100-sxm-8gpu"), "check", "--kernels"});
  CHECK(root.exit_code == 2);
  CHECK_THAT(root.err, Catch::Contains("live machine only"));
  CHECK(run_gpucheck({"--from", synthetic, "check", "--kernels"}).exit_code == 2);
  // --duration is the kernel checks' sustained mode: alone, or out of range, it is a usage error.
  auto alone = run_gpucheck({"check", "--duration", "5"});
  CHECK(alone.exit_code == 2);
  CHECK_THAT(alone.err, Catch::Contains("--duration requires --kernels"));
  CHECK(run_gpucheck({"check", "--kernels", "--duration", "0"}).exit_code == 2);
  // So are --precision and --step-timeout, with the `kernels` subcommand's names and range.
  auto precision_alone = run_gpucheck({"check", "--precision", "fp16"});
  CHECK(precision_alone.exit_code == 2);
  CHECK_THAT(precision_alone.err, Catch::Contains("--precision requires --kernels"));
  auto step_alone = run_gpucheck({"check", "--step-timeout", "5"});
  CHECK(step_alone.exit_code == 2);
  CHECK_THAT(step_alone.err, Catch::Contains("--step-timeout requires --kernels"));
  auto portable_alone = run_gpucheck({"check", "--portable"});
  CHECK(portable_alone.exit_code == 2);
  CHECK_THAT(portable_alone.err, Catch::Contains("--portable requires --kernels"));
  auto unknown = run_gpucheck({"check", "--kernels", "--precision", "fp7"});
  CHECK(unknown.exit_code == 2);
  CHECK_THAT(unknown.err, Catch::Contains("fp7"));
  CHECK(run_gpucheck({"check", "--kernels", "--step-timeout", "0.1"}).exit_code == 2);
  CHECK(run_gpucheck({"kernels", "--precision", "fp7"}).exit_code == 2);
  CHECK(run_gpucheck({"kernels", "--step-timeout", "0.1"}).exit_code == 2);

  auto judged = run_gpucheck({"--from", synthetic, "check", "--json"});
  CHECK(judged.exit_code == 1);
  const auto j = json::parse(judged.out);
  CHECK(categories_of(j) == std::vector<std::string>{"precision-unsupported"});
  CHECK(j["findings"][0]["message"].get<std::string>().find("0000:2a:00.0") != std::string::npos);
  auto text = run_gpucheck({"--from", synthetic, "check"});
  CHECK_THAT(text.out, Catch::Contains("Kernel checks") && Catch::Contains("3 of 4 checks run passed on 2 GPU(s)"));

  // This host: without a libcuda the checks say why they could not run, and
  // the rest of the verdict stands.
  auto live = run_gpucheck({"check", "--kernels", "--json"});
  REQUIRE(live.exit_code != 2);
  const auto l = json::parse(live.out);
  REQUIRE(l["facts"]["kernels"].is_object());
  if (l["facts"]["nvidia_driver"]["libcuda"]["path"].is_null()) {
    CHECK(l["facts"]["kernels"]["error"].is_string());
    // Asked for and not run is not a pass.
    CHECK(live.exit_code == 1);
    std::vector<std::string> rules;
    for (auto& f : l["findings"]) rules.push_back(f["rule"].get<std::string>());
    CHECK(std::find(rules.begin(), rules.end(), "unverified-kernels") != rules.end());
  }
}

TEST_CASE("check --kernels and kernels: --precision and --step-timeout reach the kernel checks", "[rules][cli][kernels][fake_cuda]") {
  // Synthetic driver: the fake libcuda (tests/fake_cuda) found on LD_LIBRARY_PATH by the live probe.
  // The FP32 kernel never finishes, so its check is killed after --step-timeout, not the default 10 s;
  // the other checks would fail quickly (the fake writes no output), so they show when --precision is lost.
  test::FakeDriver driver(test::kFakeH100 + "kernel gpucheck_fma_f32 hang=1\n");
  test::ScopedEnv path("LD_LIBRARY_PATH", GPUCHECK_FAKE_CUDA_DIR);
  const auto only_fp32_killed_at_700ms = [](const json& k) {
    REQUIRE(k["gpus"].size() == 1);
    const json& gpu = k["gpus"][0];
    REQUIRE(gpu["checks"].size() == 1);
    CHECK(gpu["checks"][0]["precision"] == "fp32");
    CHECK(gpu["checks"][0]["kernel"] == "gpucheck_fma_f32");
    CHECK(gpu["checks"][0]["status"] == "timed_out");
    CHECK_THAT(gpu["checks"][0]["reason"].get<std::string>(), Catch::StartsWith("no answer within 700 ms"));
    CHECK(gpu["bandwidth"].empty());  // not asked for
  };
  auto check = run_gpucheck({"check", "--kernels", "--precision", "fp32", "--step-timeout", "0.7", "--json"});
  INFO(check.err);
  REQUIRE(check.exit_code != 2);
  only_fp32_killed_at_700ms(json::parse(check.out)["facts"]["kernels"]);
  auto kernels = run_gpucheck({"kernels", "--precision", "fp32", "--step-timeout", "0.7", "--json"});
  INFO(kernels.err);
  CHECK(kernels.exit_code == 1);
  only_fp32_killed_at_700ms(json::parse(kernels.out)["kernels"]);
}

TEST_CASE("check --json: verdict, counts and stable categories", "[rules][cli]") {
  auto r = run_gpucheck({"--root", fixture("driver-mismatch"), "check", "--json"});
  REQUIRE(r.exit_code == 1);
  auto j = json::parse(r.out);
  CHECK(j["schema"] == "gpucheck.check/1");
  CHECK(j["verdict"] == "fail");
  CHECK(j["counts"]["error"].get<int>() >= 1);
  // Its driver, 550.54.14, is also of a branch whose support ended in 2025-06.
  CHECK(categories_of(j) == std::vector<std::string>{"driver-lifecycle", "driver-mismatch"});
  for (auto& f : j["findings"]) {
    CHECK(!f["evidence"].empty());
    for (auto& e : f["evidence"]) CHECK(!e["source"].get<std::string>().empty());
    CHECK(!f["sources"].empty());
  }
  CHECK(j["facts"]["schema"] == "gpucheck.facts/1");
  // --require on a GPU the matrix knows: precision-unsupported with the architecture as evidence.
  auto req = json::parse(run_gpucheck({"--root", fixture("a100-sxm4-4gpu"), "check", "--json", "--require", "fp8"}).out);
  CHECK(categories_of(req) == std::vector<std::string>{"hardware-health", "precision-unsupported"});
}

TEST_CASE("explain: names the cause that holds here, and what it cannot tell", "[rules][cli]") {
  auto here = json::parse(run_gpucheck({"--root", fixture("driver-mismatch"), "explain", "--json",
                                    "Failed to initialize NVML: Driver/library version mismatch"}).out);
  REQUIRE(!here["explanations"].empty());
  CHECK(here["explanations"][0]["rule"] == "kernel-userspace-mismatch");
  CHECK(here["explanations"][0]["applies"] == "yes");
  // Its findings are written as `check --json` writes them, sources and title included.
  const auto check = json::parse(run_gpucheck({"--root", fixture("driver-mismatch"), "check", "--json"}).out);
  REQUIRE(!here["explanations"][0]["findings"].empty());
  const auto& explained = here["explanations"][0]["findings"][0];
  bool same = false;
  for (auto& f : check["findings"]) same = same || f == explained;
  CHECK(same);
  CHECK(!explained["sources"].empty());
  auto healthy = json::parse(run_gpucheck({"--root", fixture("h100-sxm-8gpu"), "explain", "--json",
                                       "Failed to initialize NVML: Driver/library version mismatch"}).out);
  for (auto& e : healthy["explanations"]) CHECK(e["applies"] != "yes");
  auto none = run_gpucheck({"--root", fixture("h100-sxm-8gpu"), "explain", "completely unrelated words here"});
  CHECK(none.exit_code == 0);
  CHECK_THAT(none.out, Catch::Contains("No rule of the matrix knows this message"));
  CHECK_THAT(none.out, Catch::Contains("check --from REPORT"));  // where to go next
}

// issue 32: the message's meaning comes from the message, whether it holds
// from the facts alone; and no answer leaves a {fact} placeholder unfilled.
TEST_CASE("explain: what the message means apart from what the host shows, no placeholder left", "[rules][cli][explain]") {
  const std::regex placeholder(R"(\{[a-z_]+\.[a-z_.*]+\})");
  // A host without a driver: the NVML message's cause is its meaning, and
  // the host, which states no error, is not said to show it.
  const auto r = run_gpucheck({"--root", fixture("cpu-only"), "explain", "--json", "Failed to initialize NVML: Driver/library version mismatch"});
  REQUIRE(r.exit_code == 0);
  const auto j = json::parse(r.out);
  bool nvml = false;
  for (auto& e : j["explanations"]) {
    CHECK(e["applies"] != "yes");
    if (e["rule"] == "nvml-driver-library-mismatch") {
      nvml = true;
      CHECK_THAT(e["meaning"].get<std::string>(), Catch::Contains("NVML"));
    }
  }
  CHECK(nvml);
  // Every rule the matrix can explain, asked with each of its phrases: the
  // meaning and the fix name what the message does not state.
  const auto& k = gpucheck::test::builtin_knowledge();
  int asked = 0;
  for (auto& rule : k.rules)
    for (auto& phrase : rule.explains) {
      for (auto& e : explain(phrase, k.rules, {}, {})) {
        INFO(rule.id << " asked with \"" << phrase << "\": " << e.rule->id);
        CHECK_FALSE(std::regex_search(e.meaning, placeholder));
        CHECK_FALSE(std::regex_search(fill_placeholders(e.rule->fix, {}), placeholder));
      }
      ++asked;
    }
  CHECK(asked > 20);
  // The README's example, as a user runs it.
  const auto readme = run_gpucheck({"--root", fixture("rtx4090-workstation"), "explain", "no kernel image is available for execution on the device"});
  CHECK(readme.exit_code == 0);
  CHECK_FALSE(std::regex_search(readme.out, placeholder));
  CHECK_THAT(readme.out, Catch::Contains("the message:") && Catch::Contains("fix:"));
}

TEST_CASE("recommend: consumer GPUs get no forward compatibility", "[rules][cli]") {
  auto dc = json::parse(run_gpucheck({"--root", fixture("h100-sxm-8gpu"), "recommend", "--json"}).out)["recommendations"];
  CHECK(dc["driver"] == "565.57.01");
  auto consumer = json::parse(run_gpucheck({"--root", fixture("rtx4090-workstation"), "recommend", "--json"}).out)["recommendations"];
  for (auto& f : consumer["frameworks"]) CHECK(f["forward_compat"].is_null());
  bool said_why = false;
  for (auto& f : consumer["frameworks"])
    for (auto& b : f["newer_blocked"]) said_why = said_why || b.get<std::string>().find("data-center GPUs only") != std::string::npos;
  CHECK(said_why);
  auto none = json::parse(run_gpucheck({"--root", fixture("cpu-only"), "recommend", "--json"}).out)["recommendations"];
  CHECK(none["driver"].is_null());
  CHECK(!none["why_none"].is_null());
}

TEST_CASE("docs/rules.md is generated from the embedded matrix and is current", "[rules][docs]") {
  auto k = load_knowledge("");
  REQUIRE(k);
  INFO("regenerate with: gpucheck matrix docs > docs/rules.md");
  CHECK(render_rules_markdown(*k) == test::read_file(test::source_path("docs/rules.md")));
}

TEST_CASE("a saved `check --json` is read back with --from and judged the same", "[rules][cli][reports]") {
  auto first = run_gpucheck({"--root", fixture("driver-mismatch"), "check", "--json"});
  REQUIRE(first.exit_code == 1);
  test::TempDir t;
  const auto saved = t.path() / "check.json";
  test::write_file(saved, first.out);
  auto again = run_gpucheck({"--from", saved.string(), "check", "--json"});
  CHECK(again.exit_code == 1);
  auto a = json::parse(first.out), b = json::parse(again.out);
  CHECK(categories_of(a) == categories_of(b));
  CHECK(a["findings"].size() == b["findings"].size());
  CHECK_THAT(b["source"].get<std::string>(), Catch::Contains("gpucheck_json"));
}
