// NVIDIA's Xid catalogue as the matrix holds it (matrix/xids.json) and as
// the gate judges it: every code NVIDIA documents, each with its rule, its
// severity and action and a source; an Xid in the kernel log becomes that
// rule's finding, counted and named by GPU; Xid 154 by the action it names.
#include <catch2/catch.hpp>

#include <algorithm>
#include <set>

#include "rules/knowledge.hpp"
#include "rules/verdict.hpp"
#include "rules/xid_rules.hpp"

#include "knowledge_support.hpp"
#include "test_support.hpp"

using namespace gpucheck;

namespace {

Facts with_xids(const std::vector<XidEvent>& events) {
  Facts f;
  f.kernel_log.read = true;
  f.kernel_log.source = "/dev/kmsg";
  f.kernel_log.xid_events = events;
  return f;
}

XidEvent xid(int code, std::string bus = "0000:18:00.0", std::string message = "synthetic") {
  XidEvent e;
  e.xid = code;
  e.pci_bus_id = std::move(bus);
  e.message = std::move(message);
  return e;
}

std::vector<const Finding*> of_rule(const Verdict& v, const std::string& rule) {
  std::vector<const Finding*> out;
  for (auto& f : v.findings)
    if (f.rule == rule) out.push_back(&f);
  return out;
}

}  // namespace

TEST_CASE("the Xid catalogue holds every code NVIDIA documents, each with a rule, a severity, an action and a source", "[rules][xid]") {
  const auto& k = gpucheck::test::builtin_knowledge();
  const auto& xids = k.matrix.xids;
  // NVIDIA's catalogue lists codes 1 to 172 (docs.nvidia.com/deploy/xid-errors/analyzing-xid-catalog.html).
  REQUIRE(xids.size() == 172);
  std::set<int> codes;
  for (const auto& x : xids) {
    INFO("Xid " << x.code);
    CHECK(codes.insert(x.code).second);
    CHECK(parse_severity(x.severity).has_value());
    CHECK(action_named(x.action).has_value());
    CHECK_FALSE(x.sources.empty());
    CHECK_FALSE(x.meaning.empty());
    const std::string id = x.rule.value_or("xid-" + std::to_string(x.code));
    CHECK(std::count_if(k.rules.begin(), k.rules.end(), [&](const Rule& r) { return r.id == id && is_xid_rule(r); }) == 1);
  }
  CHECK(*codes.begin() == 1);
  CHECK(*codes.rbegin() == 172);
  // The two Xid rules older than the catalogue keep their ids.
  CHECK(std::any_of(k.rules.begin(), k.rules.end(), [](const Rule& r) { return r.id == "xid-fallen-off-bus"; }));
  CHECK(std::any_of(k.rules.begin(), k.rules.end(), [](const Rule& r) { return r.id == "xid-double-bit-ecc"; }));
}

TEST_CASE("each Xid in the kernel log is judged by its catalogue entry", "[rules][xid]") {
  const auto& k = gpucheck::test::builtin_knowledge();
  for (const auto& x : k.matrix.xids) {
    if (x.code == 154) continue;  // judged by the action its message names, below
    INFO("Xid " << x.code << " (" << x.name << ")");
    const Verdict v = judge(with_xids({xid(x.code)}), k, {}, std::nullopt);
    const auto found = of_rule(v, x.rule.value_or("xid-" + std::to_string(x.code)));
    REQUIRE(found.size() == 1);
    CHECK(to_string(found[0]->severity) == x.severity);
    CHECK(to_string(found[0]->action) == x.action);
    CHECK_THAT(found[0]->message, Catch::Contains("Xid " + std::to_string(x.code)) && Catch::Contains("0000:18:00.0"));
  }
}

TEST_CASE("a repeated Xid is counted, and one on several GPUs names them all", "[rules][xid]") {
  const Verdict v = judge(with_xids({xid(79, "0000:18:00.0"), xid(79, "0000:2a:00.0"), xid(79, "0000:18:00.0")}),
                          gpucheck::test::builtin_knowledge(), {}, std::nullopt);
  const auto found = of_rule(v, "xid-fallen-off-bus");
  REQUIRE(found.size() == 1);
  CHECK_THAT(found[0]->message, Catch::Contains("3 time(s)") && Catch::Contains("2 GPUs, 0000:{18,2a}:00.0"));
  CHECK(found[0]->severity == Severity::error);
  CHECK(found[0]->action == Action::reboot);
  CHECK(v.fails(false));
}

TEST_CASE("Xid 154 is judged by the recovery action its message names", "[rules][xid]") {
  const auto& k = gpucheck::test::builtin_knowledge();
  const auto recovery = [&](const std::string& text) {
    return judge(with_xids({xid(48), xid(154, "0000:18:00.0", "GPU recovery action changed from 0x0 (None) to 0x2 (" + text + ")")}), k, {},
                 std::nullopt);
  };
  const Verdict reboot = recovery("Node Reboot Required");
  REQUIRE(of_rule(reboot, "xid-154-node-reboot-required").size() == 1);
  CHECK(of_rule(reboot, "xid-154-node-reboot-required")[0]->action == Action::reboot);
  CHECK(of_rule(reboot, "xid-154").empty());  // one finding for the one event
  CHECK(verdict_action(reboot.findings, false) == Action::reboot);
  // Text the table does not know is still an Xid 154, never dropped.
  const Verdict unknown = recovery("Something New");
  CHECK(of_rule(unknown, "xid-154").size() == 1);
  CHECK(of_rule(unknown, "xid-154-node-reboot-required").empty());
}

TEST_CASE("a layer's Xid entry is checked in the rules' words and replaces the built-in one", "[rules][xid]") {
  gpucheck::test::TempDir t;
  const std::string team = t.str() + "/team.json";
  gpucheck::test::write_file(team, R"({"schema":"gpucheck.matrix/1","xids":[{"code":79,"name":"GPU has fallen off the bus",
      "meaning":"Our racks' risers: reseat first.","severity":"error","action":"service","rule":"xid-fallen-off-bus",
      "sources":["https://example.org/runbook"]}]})");
  auto laid = lay_knowledge(gpucheck::test::builtin_knowledge(), {team});
  REQUIRE(laid);
  const auto& rules = laid->rules;
  const auto r = std::find_if(rules.begin(), rules.end(), [](const Rule& x) { return x.id == "xid-fallen-off-bus"; });
  REQUIRE(r != rules.end());
  CHECK(r->action == Action::service);
  CHECK(std::count_if(rules.begin(), rules.end(), [](const Rule& x) { return x.id == "xid-fallen-off-bus"; }) == 1);
  CHECK(std::count_if(rules.begin(), rules.end(), is_xid_rule) == 177);  // 172 codes and Xid 154's five actions
  auto bad = check_knowledge({MatrixDocument{"team.json", R"({"schema":"gpucheck.matrix/1","xids":[{"code":79,"name":"n",
      "meaning":"m","severity":"fatal","action":"reboot","sources":["https://example.org/x"]}]})"}},
                             MatrixRole::layer);
  REQUIRE_FALSE(bad.problems.empty());
  CHECK_THAT(bad.problems.front().where + ": " + bad.problems.front().detail,
             Catch::Contains("/xids/0/severity") && Catch::Contains("\"fatal\""));
}
