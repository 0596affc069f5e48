// `gpucheck verify`: compare a host (or a fleet's reports) with a lock. Exit
// codes as `check`: 0 no drift, 1 drift, 2 gpucheck could not run.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <future>
#include <iostream>
#include <sstream>

#include "builtin/builtin_knowledge.hpp"
#include "cli/app.hpp"
#include "cli/cli_errors.hpp"
#include "cli/report_output.hpp"
#include "fleet/fleet_files.hpp"
#include "importers/import_report.hpp"
#include "lock/fleet.hpp"
#include "lock/lockfile.hpp"
#include "report/check_report.hpp"
#include "report/verify_report.hpp"
#include "util/json_text.hpp"
#include "util/files.hpp"
#include "util/parallel.hpp"

namespace gpucheck {

namespace {

struct VerifyArgs {
  std::string lock = "gpucheck.lock";
  bool lock_given = false;
  std::vector<std::string> fleet;
  OutputFlags output;  // --format, --json, --output
};

// `verify --fleet DIR LOCK` reads as the lock after the reports, but
// --fleet takes every argument after it: a lockfile among its arguments is
// the lock, unless one was named before it. Reports are JSON; only other
// files are tried as locks. False (after saying why) when two locks are named.
bool take_lock_from_fleet(VerifyArgs& a) {
  namespace fs = std::filesystem;
  for (auto it = a.fleet.begin(); it != a.fleet.end(); ++it) {
    std::error_code ec;
    if (fs::path(*it).extension() == ".json" || !fs::is_regular_file(*it, ec) || !read_lock_file(*it)) continue;
    if (a.lock_given) {
      error_line() << "--fleet " << *it << " is a lockfile, not a report, and the lock is already " << a.lock
                << ": name one lock (gpucheck verify LOCK --fleet REPORTS…)\n";
      return false;
    }
    a.lock = *it;
    a.lock_given = true;
    a.fleet.erase(it);
    return true;
  }
  return true;
}

// The matrix this binary embeds (verify takes no --matrix); null when it
// does not load. Read once: a fleet run asks for it per node.
const Knowledge* embedded_knowledge() {
  static const std::optional<Knowledge> k = [] {
    auto loaded = load_knowledge("");
    return loaded ? std::optional<Knowledge>(std::move(loaded).value()) : std::nullopt;
  }();
  return k ? &*k : nullptr;
}

LockContext verify_context() {
  // The matrix version is what this binary embeds; the verdict is `check`'s
  // business, not drift.
  static const LockContext ctx = [] {
    const Knowledge* k = embedded_knowledge();
    return LockContext{GPUCHECK_VERSION, k ? std::optional<std::string>(k->matrix.version) : std::nullopt, std::nullopt};
  }();
  return ctx;
}

// verify's JSON (docs/output-formats.md): the lock, the verdict, each drift as a finding.
std::string render_verify_json(const std::string& lock, const std::string& source, const std::vector<Finding>& findings) {
  nlohmann::ordered_json j{{"schema", "gpucheck.verify/1"}, {"gpucheck_version", GPUCHECK_VERSION}, {"lock", lock}, {"source", source},
                           {"verdict", has_errors(findings) ? "fail" : "pass"}, {"findings", nlohmann::ordered_json::array()}};
  for (const auto& f : findings) j["findings"].push_back(finding_json(f));
  return dump_json(j, 2) + "\n";
}

FleetNode verify_report(const Lock& pinned, const std::string& path, const Deadline& deadline) {
  FleetNode node{std::filesystem::path(path).filename().string(), {}, std::nullopt};
  if (deadline.expired()) {
    node.problem = Problem{Reason::timed_out, path, "not read: the run's --timeout was reached first"};
    return node;
  }
  auto text = read_whole_file(path, kMaxFleetReportBytes, "report");
  if (!text) {
    node.problem = text.problem();
    return node;
  }
  auto imported = import_report(*text, path, deadline);
  if (!imported) {
    node.problem = imported.problem();
    return node;
  }
  node.findings = compare_lock(pinned, lock_from_facts(imported->facts, verify_context()), node.name);
  return node;
}

// Reading and parsing a thousand reports is the whole cost of a fleet run and
// each node is independent: every core takes reports from one queue.
std::vector<FleetNode> verify_reports(const Lock& pinned, const std::vector<std::string>& files, const Deadline& deadline) {
  verify_context();  // built once here, not raced for by the workers
  std::vector<FleetNode> nodes(files.size());
  parallel_for(files.size(), 1, [&](std::size_t i) { nodes[i] = verify_report(pinned, files[i], deadline); });
  return nodes;
}

int run_verify(const GlobalOptions& g, VerifyArgs a) {
  if (!take_lock_from_fleet(a)) return kExitUsage;
  auto pinned = read_lock_file(a.lock);
  if (!pinned) {
    error_line() << pinned.problem().where << ": " << pinned.problem().detail << "\n";
    return kExitUsage;
  }
  if (a.fleet.empty()) {
    const auto today = judgement_day_or_report();  // the matrix's age, for --format prometheus
    if (!today) return kExitUsage;
    // The matrix (its version, for the report) is read beside the probes,
    // as check reads it (load_knowledge_and_facts): a prolog waits for neither.
    auto knowledge = std::async(std::launch::async, embedded_knowledge);
    std::string origin;
    auto facts = acquire_facts(g, g.probe_options(), &origin);
    const Knowledge* k = knowledge.get();
    if (!facts) return kExitUsage;
    const auto findings = compare_lock(*pinned, lock_from_facts(*facts, verify_context()));
    const bool failed = has_errors(findings);
    const RunReport run{"verify", GPUCHECK_VERSION, origin + " against " + a.lock, &*facts, k ? &k->matrix : nullptr, today,
                        run_time(), false, failed ? Outcome::fail : Outcome::pass, findings, {}, {}};
    const CommandRenderers renderers{[&](bool) { return render_verify(a.lock, findings); },
                                     [&] { return render_verify_json(a.lock, origin, findings); }};
    if (!emit_report(a.output, g, run, renderers)) return kExitUsage;
    return failed ? kExitFindings : kExitOk;
  }
  if (a.output.json || a.output.format != "text" || !a.output.outputs.empty()) {
    error_line() << "verify --fleet prints text to standard output only; --format, --json and --output are for one host\n";
    return kExitUsage;
  }
  std::vector<std::string> missing;
  const auto files = fleet_report_files(a.fleet, missing);
  for (const auto& m : missing) error_line() << "--fleet " << m << ": no such file or directory\n";
  if (!missing.empty()) return kExitUsage;
  if (files.empty()) {
    error_line() << "--fleet: no *.json reports found\n";
    return kExitUsage;
  }
  const auto nodes = verify_reports(*pinned, files, g.deadline());
  const auto groups = group_by_drift(nodes);
  std::cout << render_fleet(groups, nodes.size(), a.lock);
  bool drift = false, unreadable = false;
  for (const auto& g2 : groups) {
    if (g2.unreadable) unreadable = true;
    else if (!g2.drifts.empty()) drift = true;
  }
  if (drift) return kExitFindings;
  return unreadable ? kExitUsage : kExitOk;
}

}  // namespace

void add_verify_command(CLI::App& app, const GlobalOptions& g, CommandRun& action) {
  auto* cmd = app.add_subcommand(
      "verify",
      "Compare this host with a lock from `gpucheck lock`. This host, or --root, or a fleet of reports: every "
      "drift is a "
      "lock-drift finding. Exit code 0: no drift; 1: a pinned fact breaks its policy; 2: gpucheck could not run "
      "(unreadable or invalid lock, bad arguments).");
  auto a = std::make_shared<VerifyArgs>();
  auto* lock = cmd->add_option("lock", a->lock, "The lockfile (default gpucheck.lock)")->type_name("FILE");
  cmd->add_option("--fleet", a->fleet,
                  "Verify these `gpucheck probe --json` reports instead of this host: files, or directories whose "
                  "*.json files are read; nodes are grouped by the drift they share. The lock may come before or "
                  "after them (a lockfile among them is taken as the lock)")
      ->type_name("DIR_OR_FILE");
  add_output_options(cmd, a->output, "the lock, the verdict and each drift: docs/output-formats.md");
  cmd->callback([&g, &action, a, lock] {
    a->lock_given = lock->count() > 0;
    action = [&g, a] { return run_verify(g, *a); };
  });
}

}  // namespace gpucheck
