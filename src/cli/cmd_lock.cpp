// `gpucheck lock`: pin this host's GPU stack to a file for review and for
// `gpucheck verify`; or emit what a lock implies (pip constraints, an image).
#include <algorithm>
#include <filesystem>
#include <iostream>
#include <variant>

#include "cli/app.hpp"
#include "cli/cli_errors.hpp"
#include "cli/cli_values.hpp"
#include "rules/verdict.hpp"
#include "lock/lockfile.hpp"
#include "util/files.hpp"
#include "util/strings.hpp"

namespace gpucheck {

namespace {

struct LockArgs {
  std::string output = "gpucheck.lock";
  bool output_given = false;
  std::string emit = "lock";
  std::string in;  // emit from this lock instead of the host
  bool force = false;
  bool strict = false;  // refuse a host that fails check --strict
};

int print_problem(const Problem& p) {
  error_line() << p.where << ": " << p.detail << "\n";
  return kExitUsage;
}

struct HostLock {
  Lock lock;
  std::vector<PinCorrection> corrections;
};

// The lock this run would write, with the matrix it was judged by and the
// verdict of `check` at lock time. A host that fails check is said so on
// standard error (a lock is not a pass); under --strict it is refused
// (exit 1, nothing written).
std::variant<HostLock, int> host_lock(const GlobalOptions& g, bool strict) {
  auto loaded = load_knowledge_and_facts(g, g.probe_options());
  if (!loaded) return kExitUsage;
  const auto& [knowledge, facts] = *loaded;
  const Verdict v = judge(facts, knowledge, {}, std::nullopt);  // the lock records errors and warnings only
  if (v.fails(strict)) {
    std::vector<std::string> titles;
    for (const auto& f : v.findings)
      if (finding_fails(f, strict) && std::find(titles.begin(), titles.end(), f.title) == titles.end()) titles.push_back(f.title);
    const std::string why = "this host fails gpucheck check" + std::string(strict ? " --strict" : "") + " (" + verdict_summary(v) +
                            ": " + join(titles, "; ") + ")";
    if (strict) {
      error_line() << "lock --strict: " << why << "; nothing written (gpucheck check lists the findings)\n";
      return kExitFindings;
    }
    std::cerr << "gpucheck: warning: " << why << "; the lock pins it as it is\n";
  }
  LockContext ctx{GPUCHECK_VERSION, knowledge.matrix.version, verdict_summary(v)};
  return HostLock{lock_from_facts(facts, ctx), pin_corrections(facts)};
}

int write_out(const std::string& path, const std::string& text) {
  if (path == "-") {
    std::cout << text;
    return kExitOk;
  }
  if (auto p = write_file_atomically(path, text)) return print_problem(*p);
  return kExitOk;
}

int run_lock(const GlobalOptions& g, const LockArgs& a) {
  if (!a.in.empty() && a.emit == "lock") {
    error_line() << "lock --lock FILE reads an existing lock for --emit constraints or --emit container\n";
    return kExitUsage;
  }
  if (a.emit != "lock") {
    std::optional<Lock> lock;
    std::vector<PinCorrection> corrections;
    if (!a.in.empty()) {
      auto read = read_lock_file(a.in);
      if (!read) return print_problem(read.problem());
      lock = std::move(read).value();
    } else {
      auto got = host_lock(g, a.strict);
      if (const int* rc = std::get_if<int>(&got)) return *rc;
      lock = std::move(std::get<HostLock>(got).lock);
      corrections = std::move(std::get<HostLock>(got).corrections);
    }
    std::string text;
    if (a.emit == "constraints") {
      // Only what the constraints file holds: a pin on a package the lock
      // does not carry changes nothing written.
      for (const auto& c : corrections)
        if (lock->find("wheels", c.package) || lock->find("frameworks", c.package))
          std::cerr << "gpucheck: note: " << c.why << "; the constraint for " << c.package << " follows the pin\n";
      text = emit_constraints(*lock, corrections);
    } else {
      auto knowledge = load_knowledge_or_report(g);
      if (!knowledge) return kExitUsage;
      auto image = emit_container(*lock, knowledge->matrix);
      if (!image) return print_problem(image.problem());
      text = *image + "\n";
    }
    return write_out(a.output_given ? a.output : "-", text);
  }

  // Re-locking keeps the policies a team chose: an existing lock is read
  // first, and one that does not parse is left alone rather than replaced.
  std::optional<Lock> previous;
  std::error_code ec;
  if (a.output != "-" && std::filesystem::exists(a.output, ec) && !a.force) {
    auto read = read_lock_file(a.output);
    if (!read) {
      print_problem(read.problem());
      std::cerr << "gpucheck: note: left " << a.output << " untouched; fix it, remove it, or pass --force to replace it\n";
      return kExitUsage;
    }
    previous = std::move(read).value();
  }
  auto got = host_lock(g, a.strict);
  if (const int* rc = std::get_if<int>(&got)) return *rc;
  auto lock = std::optional<Lock>(std::move(std::get<HostLock>(got).lock));
  if (previous) {
    for (auto& e : lock->entries)
      if (const LockEntry* old = previous->find(e.section, e.key)) e.policy = old->policy;
  }
  const int rc = write_out(a.output, render_lock(*lock));
  if (rc == kExitOk && a.output != "-") std::cerr << "wrote " << a.output << " (" << lock->entries.size() << " facts)\n";
  return rc;
}

}  // namespace

void add_lock_command(CLI::App& app, const GlobalOptions& g, CommandRun& action) {
  auto* cmd = app.add_subcommand(
      "lock",
      "Pin this host's GPU stack to a lockfile. GPUs, driver, CUDA, cuDNN/NCCL/cuBLAS/TensorRT as the framework loads "
      "them, Python, frameworks, nvidia-* wheels, NGC image, for code review and `gpucheck verify` (docs/lockfile.md). "
      "Same stack, same bytes. Policies edited in an existing lock are kept.");
  auto a = std::make_shared<LockArgs>();
  auto* output = cmd->add_option("-o,--output", a->output,
                  "Write here (default gpucheck.lock; with --emit, standard output); '-' is standard output")
      ->type_name("FILE");
  cmd->add_option("--emit", a->emit,
                  "What to write: lock (default); constraints, a pip constraints file for the pinned Python packages "
                  "with the index their +cuXXX builds come from; container, the NGC image reference the lock implies")
      ->check(one_of({"lock", "constraints", "container"}))
      ->type_name("WHAT");
  cmd->add_option("--lock", a->in, "With --emit: read this lock instead of the host")->type_name("FILE");
  cmd->add_flag("--force", a->force, "Replace an existing output file even if it is not a valid lock");
  cmd->add_flag("--strict", a->strict,
                "Refuse (exit 1, nothing written) when the host fails `gpucheck check --strict`; without it such a host "
                "is locked as it is, with a warning on standard error");
  cmd->callback([&g, &action, a, output] {
    a->output_given = output->count() > 0;
    action = [&g, a] { return run_lock(g, *a); };
  });
}

}  // namespace gpucheck
