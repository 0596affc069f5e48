#include "rules/xid_rules.hpp"

#include <set>

#include "util/strings.hpp"
#include "util/utf8.hpp"

namespace gpucheck {

namespace {

const char* fix_for(Action a) {
  switch (a) {
    case Action::none: return "Nothing to do on the node; restart the application it stopped, if any";
    case Action::fix_software: return "Update the driver and the software that drives the GPU (vGPU manager, UVM settings)";
    case Action::reload_driver: return "Reload or reinstall the NVIDIA driver";
    case Action::reset_gpu:
      return "Drain the node and reset the GPU (nvidia-smi -r -i <bus id>); if the Xid comes back, have the GPU serviced";
    case Action::reboot: return "Drain the node and reboot it; if the Xid comes back, have the GPU and its PCIe slot serviced";
    case Action::service: return "Drain the node for hardware service: NVIDIA's catalogue says to contact support for this Xid";
  }
  return "";
}

Condition contains(const std::string& fact, const std::string& value) {
  return compare_condition(fact, Op::contains, {value});
}

struct Words {
  Severity severity = Severity::info;
  Action action = Action::none;
};

// The catalogue's words, in the rules layer's vocabulary.
std::optional<Words> words(const std::string& severity, const std::string& action, const std::string& where,
                           std::vector<Problem>& problems) {
  const auto s = parse_severity(severity);
  const auto a = action_named(action);
  if (!s) problems.push_back(Problem{Reason::malformed, where + "/severity", "expected \"error\", \"warning\" or \"info\", found " + quoted_value(severity)});
  if (!a) problems.push_back(Problem{Reason::malformed, where + "/action", "expected one of " + action_names() + ", found " + quoted_value(action)});
  if (!s || !a) return std::nullopt;
  return Words{*s, *a};
}

Rule xid_rule(std::string id, Words w, std::string title, Condition when, std::string message, std::vector<std::string> explains,
              std::vector<std::string> sources, std::string where) {
  Rule r;
  r.id = std::move(id);
  r.category = "hardware-health";
  r.severity = w.severity;
  r.scope = Scope::host;
  r.title = std::move(title);
  r.when = std::move(when);
  r.message = std::move(message);
  r.fix = fix_for(w.action);
  r.action = w.action;
  r.explains = std::move(explains);
  r.sources = std::move(sources);
  r.defined_in = std::string(kXidRuleOrigin) + ": " + where;
  return r;
}

std::string slug(const std::string& text) {
  std::string out;
  for (char c : to_lower(text)) out += (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ? c : '-';
  return out;
}

}  // namespace

bool is_xid_rule(const Rule& r) { return starts_with(r.defined_in, kXidRuleOrigin); }

RuleCheck xid_rules(const Matrix& m, const std::vector<Rule>& taken) {
  RuleCheck out;
  std::set<std::string> ids;
  for (const auto& r : taken)
    if (!is_xid_rule(r)) ids.insert(r.id);
  // A rule of the same id laid over the catalogue (a team's own) wins.
  const auto keep = [&](Rule r) {
    if (ids.insert(r.id).second) out.rules.push_back(std::move(r));
  };
  for (std::size_t i = 0; i < m.xids.size(); ++i) {
    const auto& x = m.xids[i];
    const std::string where = "/xids/" + std::to_string(i);
    const auto w = words(x.severity, x.action, where, out.problems);
    if (!w) continue;
    const std::string code = std::to_string(x.code);
    std::vector<std::string> explains{"Xid " + code};
    if (x.name.find("nused") == std::string::npos) explains.push_back(x.name);
    Condition when = contains("xid.codes", code);
    // An Xid 154 whose recovery action the table knows is that action's
    // finding (below), not a second one.
    if (x.code == 154 && !m.xid_recovery_actions.empty()) {
      std::vector<Condition> none_known;
      for (auto& a : m.xid_recovery_actions) none_known.push_back(compare_condition("xid.154.recovery", Op::not_contains, {a.text}));
      when = all_of({when, any_of({compare_condition("xid.154.recovery", Op::absent), all_of(std::move(none_known))})});
    }
    keep(xid_rule(x.rule.value_or("xid-" + code), *w, "Xid " + code + ": " + x.name, std::move(when),
                  "Xid " + code + " (" + x.name + ") in the kernel log since boot, {xid." + code + ".count} time(s), on {xid." +
                      code + ".gpus}: " + x.meaning,
                  std::move(explains), x.sources, where));
  }
  // Xid 154 says in words what its GPU now needs.
  for (std::size_t i = 0; i < m.xid_recovery_actions.size(); ++i) {
    const auto& a = m.xid_recovery_actions[i];
    const std::string where = "/xid_recovery_actions/" + std::to_string(i);
    const auto w = words(a.severity, a.action, where, out.problems);
    if (!w) continue;
    keep(xid_rule("xid-154-" + slug(a.text), *w, "Xid 154: the driver asks for " + a.text,
                  contains("xid.154.recovery", a.text),
                  "Xid 154 in the kernel log since boot: the driver changed the GPU's recovery action to \"" + a.text +
                      "\" (on {xid.154.gpus}), after the Xids beside it",
                  {"GPU recovery action changed", a.text}, a.sources, where));
  }
  return out;
}

}  // namespace gpucheck
