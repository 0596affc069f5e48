// Judging a host against a lock, field by field, by each field's policy.
#include <algorithm>

#include "lock/fields.hpp"
#include "lock/lockfile.hpp"
#include "util/version.hpp"

namespace gpucheck {

namespace {

enum class Verdict { same, within, breach };

std::string show(const std::optional<std::string>& v) { return v ? *v : "none"; }

// "+cu121" of "2.1.0+cu121": a different build, whatever the numbers say.
std::string_view local_tag(std::string_view v) {
  auto plus = v.find('+');
  return plus == std::string_view::npos ? std::string_view{} : v.substr(plus + 1);
}

Verdict judge(Policy policy, int depth, const std::optional<std::string>& pinned,
              const std::optional<std::string>& found) {
  if (pinned == found || policy == Policy::ignore) return Verdict::same;
  if (!pinned) return policy == Policy::at_least ? Verdict::within : Verdict::breach;
  if (!found) return Verdict::breach;
  if (policy == Policy::exact) return Verdict::breach;
  auto p = Version::parse(*pinned), f = Version::parse(*found);
  if (!p || !f || local_tag(*pinned) != local_tag(*found)) return Verdict::breach;
  if (policy == Policy::at_least) return *f >= *p ? Verdict::within : Verdict::breach;
  // same-branch: the leading `depth` components agree.
  for (int i = 0; i < std::max(depth, 1); ++i)
    if (p->part(static_cast<std::size_t>(i)) != f->part(static_cast<std::size_t>(i))) return Verdict::breach;
  return Verdict::within;
}

std::string policy_meaning(Policy p, int depth) {
  switch (p) {
    case Policy::exact: return "the same value";
    case Policy::same_branch:
      return depth <= 1 ? "the same major version (branch)" : "the same first " + std::to_string(depth) + " version components";
    case Policy::at_least: return "this version or newer, same build tag";
    case Policy::ignore: return "not compared";
  }
  return "";
}

Finding drift(const std::string& field, const std::optional<std::string>& pinned, const std::optional<std::string>& found,
              Policy policy, int depth, Verdict v, const std::string& where_found, std::string_view scope) {
  Finding f;
  f.rule = "lock-drift";
  f.category = "lock-drift";
  f.severity = v == Verdict::breach ? Severity::error : Severity::info;
  f.action = v == Verdict::breach ? Action::fix_software : Action::none;
  f.scope = std::string(scope);
  const std::string pol(to_string(policy));
  if (v == Verdict::breach) {
    f.title = field + " drifted from the lock";
    f.message = field + ": pinned " + show(pinned) + ", found " + show(found) + "; policy " + pol + " allows " +
                policy_meaning(policy, depth);
    f.fix = "If the change is intended, run `gpucheck lock` again and commit the new lock (or relax the " + field +
            " policy in it); otherwise bring " + field + " back to " + show(pinned) + ".";
  } else {
    f.title = field + " moved within its policy";
    f.message = field + ": pinned " + show(pinned) + ", found " + show(found) + "; policy " + pol + " allows it";
  }
  f.evidence.push_back({field, show(found), where_found.empty() ? "this host" : where_found});
  f.evidence.push_back({field + " (pinned)", show(pinned), "lockfile"});
  f.evidence.push_back({field + " (policy)", pol, "lockfile"});
  f.sources.push_back("docs/lockfile.md");
  return f;
}

}  // namespace

std::vector<Finding> compare_lock(const Lock& pinned, const Lock& found, std::string_view scope) {
  std::vector<Finding> out;
  auto consider = [&](const std::string& section, const std::string& key, const LockEntry* p, const LockEntry* f) {
    const FieldSpec* spec = find_field(section, key);
    const int depth = spec ? spec->branch_depth : 0;
    // A field the lock lacks is pinned as absent, by the policy the host's
    // lock would give it (a new nvidia-* wheel is a drift, not a blind spot).
    const Policy policy = p ? p->policy : f ? f->policy : Policy::exact;
    const std::optional<std::string> pv = p ? p->value : std::nullopt;
    const std::optional<std::string> fv = f ? f->value : std::nullopt;
    // The verdict and matrix of a verify run are often not evaluated at all:
    // nothing to compare, not a drift.
    if (section == "lock" && (!fv || *fv == "not evaluated")) return;
    const Verdict v = judge(policy, depth, pv, fv);
    if (v == Verdict::same) return;
    out.push_back(drift(section + "." + key, pv, fv, policy, depth, v, f ? f->comment : "", scope));
  };
  for (const auto& p : pinned.entries) consider(p.section, p.key, &p, found.find(p.section, p.key));
  for (const auto& f : found.entries)
    if (!pinned.find(f.section, f.key)) consider(f.section, f.key, nullptr, &f);
  return out;
}

bool has_errors(const std::vector<Finding>& findings) {
  return std::any_of(findings.begin(), findings.end(), [](const Finding& f) { return f.severity == Severity::error; });
}

}  // namespace gpucheck
