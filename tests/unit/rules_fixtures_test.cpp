// Every rule of the matrix has a fixture that triggers it, and the real
// fixtures give exactly their known verdicts: the table tests/fixtures/triggers.json,
// whose cases are real fixtures, or copies of them with small recorded edits.
#include <catch2/catch.hpp>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "host/hosts.hpp"
#include "importers/import_report.hpp"
#include "probe.hpp"
#include "python_sys_path.hpp"
#include "rules/knowledge.hpp"
#include "rules/verdict.hpp"
#include "rules/verdict_basis.hpp"
#include "rules/xid_rules.hpp"
#include "report/rules_doc.hpp"
#include "util/dates.hpp"
#include "util/embedded_file.hpp"
#include "knowledge_support.hpp"
#include "test_support.hpp"

namespace gpucheck::embedded {
// probes/deep_probe.py as embedded: the recorded deep probe's command line holds it.
extern const File kDeepProbe[];
}  // namespace gpucheck::embedded

using namespace gpucheck;
using gpucheck::test::TempDir;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

const std::string kHosts = gpucheck::test::source_path("tests/fixtures/hosts");

// tests/fixtures/triggers.json, with the cases of triggers-diagnosis.json
// (the rules of matrix/rules/diagnosis.json, judged on real pastes) after its own.
const json& table() {
  static const json t = [] {
    json all = json::parse(gpucheck::test::read_file(gpucheck::test::source_path("tests/fixtures/triggers.json")));
    const json more = json::parse(gpucheck::test::read_file(gpucheck::test::source_path("tests/fixtures/triggers-diagnosis.json")));
    for (auto& c : more.at("cases")) all["cases"].push_back(c);
    return all;
  }();
  return t;
}

// Every occurrence; an edit that matches nothing is a stale case, so it fails.
std::string replace_all(std::string text, const json& pair, const std::string& where) {
  const auto from = pair.at(0).get<std::string>(), to = pair.at(1).get<std::string>();
  INFO(where << ": replace \"" << from << "\"");
  REQUIRE(text.find(from) != std::string::npos);
  for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
  return text;
}

json read_json(const fs::path& p) { return json::parse(gpucheck::test::read_file(p.string())); }
void write_json(const fs::path& p, const json& j) { gpucheck::test::write_file(p, j.dump(2) + "\n"); }

void apply_file_edit(const fs::path& root, const json& e) {
  const fs::path p = root / e.at("file").get<std::string>();
  if (e.contains("replace")) {
    gpucheck::test::write_file(p, replace_all(gpucheck::test::read_file(p.string()), e["replace"], p.string()));
  } else if (e.contains("write")) {
    if (fs::is_symlink(p)) fs::remove(p);
    gpucheck::test::write_file(p, e["write"].get<std::string>());
  } else if (e.contains("symlink")) {
    fs::create_directories(p.parent_path());
    if (fs::is_symlink(p) || fs::exists(p)) fs::remove(p);
    fs::create_symlink(e["symlink"].get<std::string>(), p);
  } else if (e.value("delete", false)) {
    INFO("delete " << p);
    REQUIRE((fs::is_symlink(p) || fs::exists(p)));
    fs::remove_all(p);  // a link itself, never its target
  } else {
    FAIL("unknown file edit " << e.dump());
  }
}

void apply_manifest_edit(const fs::path& root, const json& e) {
  const fs::path mpath = root / ".gpucheck/manifest.json";
  json m = read_json(mpath);
  if (e.contains("env")) {
    for (auto& [k, v] : e["env"].items()) m["env"][k] = v;
  } else if (e.contains("command") && (e.contains("write") || e.contains("delete"))) {
    // A command's record, written whole ({"exit_code": …, "stdout": …}) or taken away.
    const auto key = e["command"].get<std::string>();
    if (e.contains("write")) m["commands"][key] = e["write"];
    else {
      INFO("command " << key);
      REQUIRE(m["commands"].contains(key));
      m["commands"].erase(key);
    }
  } else if (e.contains("command")) {
    const auto key = e["command"].get<std::string>();
    INFO("command " << key);
    REQUIRE(m["commands"].contains(key));
    auto& c = m["commands"][key];
    if (c.contains("stdout_file")) {
      const fs::path out = root / ".gpucheck" / c["stdout_file"].get<std::string>();
      gpucheck::test::write_file(out, replace_all(gpucheck::test::read_file(out.string()), e.at("replace"), out.string()));
    } else {
      c["stdout"] = replace_all(c.at("stdout").get<std::string>(), e.at("replace"), key);
    }
  } else if (e.contains("call")) {
    const auto key = e["call"].get<std::string>();
    if (e.contains("from")) {
      const json src = read_json(fs::path(kHosts) / e["from"].get<std::string>() / ".gpucheck/manifest.json");
      m["calls"][key] = src.at("calls").at(key);
    } else if (e.contains("write")) {
      m["calls"][key] = json{{"output", e["write"]}};
    } else if (e.contains("error")) {
      m["calls"][key] = json{{"error", e["error"]}};
    } else {
      INFO("call " << key);
      REQUIRE(m["calls"].contains(key));
      m["calls"][key]["output"] = replace_all(m["calls"][key].at("output").get<std::string>(), e.at("replace"), key);
    }
  } else if (e.contains("sys_path_answer")) {
    // The sys.path question's record: "<interpreter> -S -c <question>" (python_sys_path.hpp).
    const auto& a = e["sys_path_answer"];
    m["commands"][a.at("interpreter").get<std::string>() + " -S -c " + kSysPathQuestion] = a.at("record");
  } else if (e.contains("unreadable")) {
    for (auto& [path, problem] : e["unreadable"].items()) m["unreadable"][path] = problem;
  } else if (e.contains("deep_answer")) {
    // The probe asks for "<interpreter> -c <script>", arguments joined by spaces (docs/snapshot.md).
    const auto& d = e["deep_answer"];
    m["commands"][d.at("interpreter").get<std::string>() + " -c " + embedded::kDeepProbe[0].text] =
        json{{"exit_code", 0}, {"stdout", d.at("stdout")}, {"stderr", ""}};
  } else {
    FAIL("unknown edit " << e.dump());
  }
  write_json(mpath, m);
}

LaunchRequirements requirements_of(const json& c) {
  LaunchRequirements r;
  if (!c.contains("requirements")) return r;
  const auto& j = c["requirements"];
  if (j.contains("precisions")) r.precisions = j["precisions"].get<std::vector<std::string>>();
  if (j.contains("min_compute")) r.min_compute = j["min_compute"].get<std::string>();
  if (j.contains("min_memory")) r.min_memory = parse_memory_size(j["min_memory"].get<std::string>());
  if (j.contains("gpus")) r.gpus = j["gpus"].get<int>();
  REQUIRE((r.min_memory || !j.contains("min_memory")));
  return r;
}

Facts facts_of(const json& c, const TempDir& tmp) {
  if (c.contains("report")) {
    const auto path = c["report"].get<std::string>();
    auto imported = import_report(gpucheck::test::read_file(gpucheck::test::source_path(path)), path);
    INFO("report " << path << ": " << (imported ? "" : imported.problem().detail));
    REQUIRE(imported);
    return std::move(imported).value().facts;
  }
  const fs::path root = tmp.path() / "snapshot";
  fs::copy(fs::path(kHosts) / c.at("base").get<std::string>(), root, fs::copy_options::recursive | fs::copy_options::copy_symlinks);
  for (auto& e : c.value("edits", json::array())) {
    if (e.contains("file")) apply_file_edit(root, e);
    else apply_manifest_edit(root, e);
  }
  auto host = open_host(root.string());
  REQUIRE(host);
  ProbeOptions opts;
  opts.deep = c.value("deep", false);
  return run_probes(**host, opts);
}

std::set<std::string> strings_of(const json& arr) {
  std::set<std::string> out;
  for (auto& s : arr) out.insert(s.get<std::string>());
  return out;
}

std::string describe(const Verdict& v) {
  std::string s;
  for (auto& f : v.findings) s += "\n  " + std::string(to_string(f.severity)) + " " + f.category + " " + f.rule + ": " + f.message;
  return s.empty() ? " (none)" : s;
}

Verdict run_case(const json& c) {
  TempDir tmp;
  std::optional<Day> today;
  if (c.contains("today")) {
    today = parse_iso_date(c["today"].get<std::string>());
    REQUIRE(today);
  }
  const Verdict v = judge(facts_of(c, tmp), gpucheck::test::builtin_knowledge(), requirements_of(c), today);
  std::set<std::string> categories, fired, errors;
  for (auto& f : v.findings) {
    fired.insert(f.rule);
    if (f.severity != Severity::info) categories.insert(f.category);
    if (f.severity == Severity::error) errors.insert(f.rule);
  }
  INFO("findings:" << describe(v));
  CHECK(categories == strings_of(c.at("expect")));
  for (auto& r : c.at("rules")) {
    INFO("rule " << r.get<std::string>() << " should fire");
    CHECK(fired.count(r.get<std::string>()) == 1);
  }
  // "not_fired": rules the case shows must stay quiet (a healthy variant
  // whose other findings share their category).
  for (auto& r : c.value("not_fired", json::array())) {
    INFO("rule " << r.get<std::string>() << " should not fire");
    CHECK(fired.count(r.get<std::string>()) == 0);
  }
  // "errors": rules of the case that must fire as errors, not warnings.
  for (auto& r : c.value("errors", json::array())) {
    INFO("rule " << r.get<std::string>() << " should fire as an error");
    CHECK(errors.count(r.get<std::string>()) == 1);
  }
  // "one_finding": rules that hold on several GPUs and must say so once.
  for (auto& r : c.value("one_finding", json::array())) {
    INFO("rule " << r.get<std::string>() << " should be one finding");
    CHECK(std::count_if(v.findings.begin(), v.findings.end(), [&](const Finding& f) { return f.rule == r.get<std::string>(); }) == 1);
  }
  // "says": rule -> text its message or fix must hold (the cause it names).
  const json says = c.value("says", json::object());
  for (auto& [rule, text] : says.items()) {
    INFO("rule " << rule << " should say \"" << text.get<std::string>() << "\"");
    CHECK(std::any_of(v.findings.begin(), v.findings.end(), [&](const Finding& f) {
      return f.rule == rule && (f.message.find(text.get<std::string>()) != std::string::npos ||
                                f.fix.find(text.get<std::string>()) != std::string::npos);
    }));
  }
  return v;
}

std::set<std::string> listed_rules() {
  std::set<std::string> out;
  for (auto& c : table().at("cases"))
    for (auto& r : c.at("rules")) out.insert(r.get<std::string>());
  return out;
}

}  // namespace

TEST_CASE("every case of the trigger table gives exactly its expected verdict", "[rules][fixtures]") {
  std::set<std::string> names;
  for (auto& c : table().at("cases")) {
    const auto name = c.at("name").get<std::string>();
    INFO("case \"" << name << "\" (base " << c.value("base", c.value("report", "?")) << "): " << c.value("note", ""));
    CHECK(names.insert(name).second);
    CHECK(!c.value("note", "").empty());
    // A changed real fixture is synthetic, and says so.
    if (!c.value("edits", json::array()).empty()) CHECK(name.rfind("synthetic", 0) == 0);
    run_case(c);
  }
}

TEST_CASE("every rule of the embedded matrix has a case that triggers it", "[rules][fixtures]") {
  const auto listed = listed_rules();
  std::set<std::string> exempt;
  for (auto& u : table().value("untriggerable", json::array())) exempt.insert(u.at("rule").get<std::string>());
  // The Xid catalogue's rules are one table, walked whole by
  // xid_catalogue_test.cpp; a few of them have cases here as well.
  std::set<std::string> ids, xid_ids;
  for (auto& r : gpucheck::test::builtin_knowledge().rules) (is_xid_rule(r) ? xid_ids : ids).insert(r.id);
  for (auto& id : ids) {
    INFO("rule " << id << ": add a case to tests/fixtures/triggers.json whose \"rules\" lists it");
    CHECK((listed.count(id) == 1 || exempt.count(id) == 1));
  }
  for (auto& id : exempt) {
    INFO("untriggerable entry " << id << ": no such rule, or a case lists it now (then drop the entry)");
    CHECK(ids.count(id) == 1);
    CHECK(listed.count(id) == 0);
  }
  // Listed ids are real ones: a typo would otherwise pass as "covered".
  LaunchRequirements all;
  all.precisions = precision_names();
  all.min_compute = "9.0";
  all.min_memory = MemorySize{1, false};
  all.gpus = 1;
  std::set<std::string> requirement_ids;
  for (auto& r : requirement_rules(all)) requirement_ids.insert(r.id);
  // The gate's own findings of what could not be read (verdict_basis.hpp).
  for (auto& row : verdict_basis())
    if (!row.rule.empty()) requirement_ids.insert(std::string(row.rule));
  for (auto& id : listed) {
    INFO("listed rule " << id);
    CHECK((ids.count(id) == 1 || xid_ids.count(id) == 1 || requirement_ids.count(id) == 1));
  }
}

TEST_CASE("each kind of launcher requirement has a case that triggers it", "[rules][fixtures]") {
  // fp64 and fp32 are in every architecture of the matrix, so one precision
  // stands for all: the rules differ only in the name.
  LaunchRequirements one;
  one.precisions = {"fp8"};
  one.min_compute = "9.0";
  one.min_memory = MemorySize{1, false};
  one.gpus = 1;
  const auto listed = listed_rules();
  for (auto& r : requirement_rules(one)) {
    INFO("requirement rule " << r.id);
    CHECK(listed.count(r.id) == 1);
  }
}

TEST_CASE("the real fixtures are in the table as they are, and the healthy ones give no error or warning", "[rules][fixtures]") {
  std::map<std::string, const json*> plain;
  for (auto& c : table().at("cases"))
    if (c.contains("base") && c.value("edits", json::array()).empty() && !c.contains("requirements") && !c.value("deep", false))
      plain[c["base"].get<std::string>()] = &c;
  for (auto& e : fs::directory_iterator(kHosts)) {
    if (!e.is_directory()) continue;
    const auto name = e.path().filename().string();
    INFO("fixture " << name << ": add a case with no edits, expecting its verdict as it is");
    REQUIRE(plain.count(name) == 1);
  }
  // Healthy by their notes: a verdict here would be a false alarm.
  for (const char* healthy : {"h100-sxm-8gpu", "rtx4090-workstation", "conda-pytorch-cu118", "cpu-only", "rocm6-mi300x"}) {
    INFO("fixture " << healthy);
    REQUIRE(plain.count(healthy) == 1);
    CHECK(plain[healthy]->at("expect").empty());
    TempDir tmp;
    const Verdict v = judge(facts_of(*plain[healthy], tmp), gpucheck::test::builtin_knowledge(), LaunchRequirements{}, std::nullopt);
    INFO("findings:" << describe(v));
    CHECK(v.count(Severity::error) == 0);
    CHECK(v.count(Severity::warning) == 0);
  }
}

namespace {

const json& basis_table() {
  static const json t = json::parse(gpucheck::test::read_file(gpucheck::test::source_path("tests/fixtures/verdict-basis.json")));
  return t;
}

}  // namespace

TEST_CASE("every row of the verdict's basis has a case, and each case gives the verdict the table says", "[rules][fixtures][basis]") {
  std::set<std::string> rows_with_cases;
  for (auto& c : basis_table().at("cases")) {
    const auto row_id = c.at("row").get<std::string>();
    INFO("case \"" << c.at("name").get<std::string>() << "\" (row " << row_id << "): " << c.value("note", ""));
    const BasisRow& row = basis_row(row_id);
    rows_with_cases.insert(row_id);
    const Verdict v = run_case(c);
    // The row's finding, where the case makes one, has the table's severity
    // (a row that never makes one says so in the case's not_fired).
    for (const auto& f : v.findings)
      if (f.rule == row.rule) CHECK(f.severity == (row.failed == Missing::warning ? Severity::warning : Severity::error));
  }
  for (const auto& row : verdict_basis()) {
    INFO("row " << row.id << ": add a case to tests/fixtures/verdict-basis.json");
    CHECK(rows_with_cases.count(std::string(row.id)) == 1);
  }
}

TEST_CASE("docs/exit-codes.md points to the verdict's basis, which docs/rules.md holds as the code has it", "[rules][docs][basis]") {
  CHECK_THAT(gpucheck::test::read_file(gpucheck::test::source_path("docs/exit-codes.md")), Catch::Contains("rules.md#what-a-verdict-rests-on"));
  CHECK_THAT(gpucheck::test::read_file(gpucheck::test::source_path("docs/rules.md")), Catch::Contains(render_verdict_basis_markdown()));
}

TEST_CASE("the README's gate passes the healthy H100 node and fails every broken copy of it", "[rules][fixtures]") {
  // README, Use: check --require bf16,fp8 --min-compute 9.0 --min-memory 80G --gpus 8 --strict
  LaunchRequirements gate;
  gate.precisions = {"bf16", "fp8"};
  gate.min_compute = "9.0";
  gate.min_memory = parse_memory_size("80G");
  gate.gpus = 8;
  int broken = 0;
  for (const json* file : {&table(), &basis_table()})
    for (auto& c : file->at("cases")) {
      if (c.value("base", "") != "h100-sxm-8gpu") continue;
      // The host as it is, judged on other requirements than the gate's.
      if (c.value("edits", json::array()).empty() && c.contains("requirements")) continue;
      TempDir tmp;
      const Verdict v = judge(facts_of(c, tmp), gpucheck::test::builtin_knowledge(), gate, std::nullopt);
      INFO("case \"" << c.at("name").get<std::string>() << "\"; findings:" << describe(v));
      // A case whose own verdict is clean is the healthy node (or a fact
      // merely listed): the gate passes it; every other case fails it.
      CHECK(v.fails(true) == !c.at("expect").empty());
      broken += !c.at("expect").empty();
    }
  CHECK(broken >= 12);
}
