// `gpucheck lock`: pin this host's GPU stack to a file for review and for
// `gpucheck verify`; or emit what a lock implies (pip constraints, an image).
#include <filesystem>
#include <iostream>

#include "cli/app.hpp"
#include "rules/verdict.hpp"
#include "lock/lockfile.hpp"
#include "util/files.hpp"

namespace gpucheck {

namespace {

struct LockArgs {
  std::string output = "gpucheck.lock";
  bool output_given = false;
  std::string emit = "lock";
  std::string in;  // emit from this lock instead of the host
  bool force = false;
};

int print_problem(const Problem& p) {
  std::cerr << "gpucheck: " << p.where << ": " << p.detail << "\n";
  return kExitUsage;
}

// The lock this run would write, with the matrix it was judged by and the
// verdict of `check` at lock time.
std::optional<Lock> host_lock(const GlobalOptions& g) {
  auto loaded = load_knowledge_and_facts(g, g.probe_options());
  if (!loaded) return std::nullopt;
  const auto& [knowledge, facts] = *loaded;
  const Verdict v = judge(facts, knowledge, {}, std::nullopt);  // the lock records errors and warnings only
  LockContext ctx{GPUCHECK_VERSION, knowledge.matrix.version, verdict_summary(v)};
  return lock_from_facts(facts, ctx);
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
    std::cerr << "gpucheck: lock --lock FILE reads an existing lock for --emit constraints or --emit container\n";
    return kExitUsage;
  }
  if (a.emit != "lock") {
    std::optional<Lock> lock;
    if (!a.in.empty()) {
      auto read = read_lock_file(a.in);
      if (!read) return print_problem(read.problem());
      lock = std::move(read).value();
    } else {
      lock = host_lock(g);
      if (!lock) return kExitUsage;
    }
    std::string text;
    if (a.emit == "constraints") {
      text = emit_constraints(*lock);
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
      std::cerr << "gpucheck: left " << a.output << " untouched; fix it, remove it, or pass --force to replace it\n";
      return kExitUsage;
    }
    previous = std::move(read).value();
  }
  auto lock = host_lock(g);
  if (!lock) return kExitUsage;
  if (previous) {
    for (auto& e : lock->entries)
      if (const LockEntry* old = previous->find(e.section, e.key)) e.policy = old->policy;
  }
  const int rc = write_out(a.output, render_lock(*lock));
  if (rc == kExitOk && a.output != "-") std::cerr << "wrote " << a.output << " (" << lock->entries.size() << " facts)\n";
  return rc;
}

}  // namespace

void add_lock_command(CLI::App& app, const GlobalOptions& g, Action& action) {
  auto* cmd = app.add_subcommand(
      "lock",
      "Pin this host's GPU stack (GPUs, driver, CUDA, cuDNN/NCCL/cuBLAS/TensorRT as the framework loads them, Python, "
      "frameworks, nvidia-* wheels, NGC image) to a lockfile for code review and `gpucheck verify` (docs/lockfile.md). "
      "Same stack, same bytes. Policies edited in an existing lock are kept.");
  auto a = std::make_shared<LockArgs>();
  auto* output = cmd->add_option("-o,--output", a->output,
                  "Write here (default gpucheck.lock; with --emit, standard output); '-' is standard output")
      ->type_name("FILE");
  cmd->add_option("--emit", a->emit,
                  "What to write: lock (default); constraints, a pip constraints file for the pinned Python packages "
                  "with the index their +cuXXX builds come from; container, the NGC image reference the lock implies")
      ->check(CLI::IsMember({"lock", "constraints", "container"}));
  cmd->add_option("--lock", a->in, "With --emit: read this lock instead of the host")->type_name("FILE");
  cmd->add_flag("--force", a->force, "Replace an existing output file even if it is not a valid lock");
  cmd->callback([&g, &action, a, output] {
    a->output_given = output->count() > 0;
    action = [&g, a] { return run_lock(g, *a); };
  });
}

}  // namespace gpucheck
